/** kilo through spot against the scripted model (OpenAI chat, an opencode fork). */
import { conformanceSuite } from "./harness.ts";

conformanceSuite({
  cli: "kilo",
  model: "scripted-model",
  providerType: "openai-completions",
  baseUrl: (root) => `${root}/v1`,
  // kilo boots for up to 20 s on two cores before its first line, more on a busy machine.
  idleSeconds: 45,
  maxRetries: 1,
  boundSeconds: { default: 120, silent: 150 },
});
