/** Claude Code through spot against the scripted model (Anthropic Messages). */
import { conformanceSuite } from "./harness.ts";

conformanceSuite({
  cli: "claude",
  model: "scripted-model",
  providerType: "anthropic-messages",
  baseUrl: (root) => root,
  idleSeconds: 8,
  maxRetries: 1,
  boundSeconds: { default: 40 },
});
