/** gemini-cli through spot against the scripted model (Gemini streamGenerateContent). */
import { conformanceSuite } from "./harness.ts";

conformanceSuite({
  cli: "gemini",
  model: "scripted-model",
  providerType: "google-gemini",
  baseUrl: (root) => root,
  // gemini boots for 3-10 s before it prints its first line.
  idleSeconds: 15,
  maxRetries: 1,
  boundSeconds: { default: 60 },
});
