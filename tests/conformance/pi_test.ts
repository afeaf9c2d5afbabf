/** pi through spot against the scripted model (OpenAI chat). */
import { conformanceSuite } from "./harness.ts";

conformanceSuite({
  cli: "pi",
  model: "scripted-model",
  providerType: "openai-completions",
  baseUrl: (root) => `${root}/v1`,
  idleSeconds: 8,
  maxRetries: 1,
  boundSeconds: { default: 40 },
});
