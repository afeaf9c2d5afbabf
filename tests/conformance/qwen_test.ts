/** qwen-code through spot against the scripted model (OpenAI chat). */
import { conformanceSuite } from "./harness.ts";

conformanceSuite({
  cli: "qwen",
  model: "scripted-model",
  providerType: "openai-completions",
  baseUrl: (root) => `${root}/v1`,
  // qwen's first event can take over 12 s on a loaded 2-core machine: the cases that end on an event of
  // their own get a watchdog that outlasts a slow start; the silent ones keep the short one they measure.
  idleSeconds: 30,
  maxRetries: 0,
  // qwen retries a 429 seven times with backoff (about 80 s) and prints nothing meanwhile; no setting
  // shortens that loop, so the quota case gets a watchdog that outlasts it and sees qwen's own error.
  idleSecondsFor: { "429": 100, "429rl": 12, silent: 12 },
  boundSeconds: { default: 60, "429": 120 },
  expect: {
    // With a watchdog shorter than qwen's silent retries, a rate limit ends as no_progress; the
    // quota case above shows the class qwen reports once its retries are spent.
    "429rl": { code: "no_progress", status: "failed", attempts: 2 },
  },
});
