/** opencode through spot against the scripted model (OpenAI chat via @ai-sdk/openai-compatible). */
import { conformanceSuite } from "./harness.ts";

conformanceSuite({
  cli: "opencode",
  model: "scripted-model",
  providerType: "openai-completions",
  baseUrl: (root) => `${root}/v1`,
  // opencode spends 4-10 s booting on two cores before its first line, more on a busy machine.
  idleSeconds: 30,
  boundSeconds: { default: 90, silent: 120 },
});
