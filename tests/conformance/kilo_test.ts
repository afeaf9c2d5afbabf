/** kilo through spot against the scripted model (OpenAI chat, an opencode fork). */
import { conformanceSuite } from "./harness.ts";

conformanceSuite({
  cli: "kilo",
  model: "scripted-model",
  providerType: "openai-completions",
  baseUrl: (root) => `${root}/v1`,
  // kilo boots for up to 20 s on two cores before its first line, and past 45 s on a loaded machine (a
  // 429 turn was once classified no_progress that way); the silent scenario keeps the shorter limit it tests.
  idleSeconds: 75,
  idleSecondsFor: { silent: 45 },
  maxRetries: 1,
  boundSeconds: { default: 150, silent: 150 },
});
