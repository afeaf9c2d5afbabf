/** codex through spot against the scripted model (OpenAI Responses, apply_patch as a custom tool). */
import { conformanceSuite } from "./harness.ts";

conformanceSuite({
  cli: "codex",
  // A slug codex knows, so it offers apply_patch; the scripted server answers any name.
  model: "gpt-5.5",
  providerType: "openai-responses",
  baseUrl: (root) => `${root}/v1`,
  idleSeconds: 8,
  maxRetries: 1,
  boundSeconds: { default: 40 },
});
