/**
 * Profile settings reach the provider: real CLIs (codex, claude, qwen, opencode, pi) run through spot with
 * reasoningEffort set (and the other settings their row of adapters/capabilities/settings.ts takes), and the scripted
 * server's recorded request bodies show the effort each CLI sent. Without the setting these CLIs send no
 * effort, or another one.
 */
import assert from "node:assert/strict";
import type { RecordedRequest } from "../model_server/server.ts";
import { settingsTest } from "./harness.ts";

/** Every model request carried `want` where `pick` looks. */
function everyRequest(pick: (body: Record<string, unknown>) => unknown, want: unknown) {
  return (requests: RecordedRequest[]) => {
    const sent = requests.map((r) => pick(r.body ?? {}));
    assert.ok(sent.length > 0, "no model request was recorded");
    assert.deepEqual(sent, sent.map(() => want), JSON.stringify(sent));
  };
}

const field = (body: Record<string, unknown>, ...keys: string[]) =>
  keys.reduce<unknown>((v, k) => (v as Record<string, unknown> | undefined)?.[k], body);

settingsTest(
  "codex: reasoningEffort becomes model_reasoning_effort, and each Responses request carries it",
  {
    cli: "codex",
    model: "gpt-5.5",
    providerType: "openai-responses",
    baseUrl: (root) => `${root}/v1`,
    idleSeconds: 8,
    maxRetries: 1,
    boundSeconds: { default: 40 },
    profile: { reasoningEffort: "low", maxContextSize: 200_000 },
  },
  everyRequest((b) => field(b, "reasoning", "effort"), "low"),
);

settingsTest(
  "claude: reasoningEffort becomes --effort, and each Messages request carries it",
  {
    cli: "claude",
    model: "scripted-model",
    providerType: "anthropic-messages",
    baseUrl: (root) => root,
    idleSeconds: 8,
    maxRetries: 1,
    boundSeconds: { default: 40 },
    profile: { reasoningEffort: "high", maxContextSize: 200_000, limits: { maxTurns: 5 } },
  },
  everyRequest((b) => field(b, "output_config", "effort"), "high"),
);

settingsTest(
  "qwen: reasoningEffort goes in its settings.json, and each chat request carries it",
  {
    cli: "qwen",
    model: "scripted-model",
    providerType: "openai-completions",
    baseUrl: (root) => `${root}/v1`,
    // A slow first event on a loaded machine is not what this case tests.
    idleSeconds: 30,
    maxRetries: 0,
    boundSeconds: { default: 60 },
    profile: { reasoningEffort: "high", maxContextSize: 200_000, limits: { maxTurns: 5 } },
  },
  everyRequest((b) => field(b, "reasoning", "effort"), "high"),
);

settingsTest(
  "opencode: reasoningEffort goes in the model's options, and each chat request carries it",
  {
    cli: "opencode",
    model: "scripted-model",
    providerType: "openai-completions",
    baseUrl: (root) => `${root}/v1`,
    idleSeconds: 30,
    boundSeconds: { default: 90 },
    profile: { reasoningEffort: "high", limits: { maxTurns: 5 } },
  },
  everyRequest((b) => field(b, "reasoning_effort"), "high"),
);

settingsTest(
  "pi: reasoningEffort becomes --thinking on a model spot declares able to reason, and each request carries it",
  {
    cli: "pi",
    model: "scripted-model",
    providerType: "openai-completions",
    baseUrl: (root) => `${root}/v1`,
    idleSeconds: 8,
    maxRetries: 1,
    boundSeconds: { default: 40 },
    profile: { reasoningEffort: "high", maxContextSize: 200_000 },
  },
  // Without `reasoning: true` in the models.json spot writes, pi drops the level and sends no effort.
  everyRequest((b) => field(b, "reasoning_effort"), "high"),
);
