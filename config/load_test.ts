import assert from "node:assert/strict";
import { isSpotError, type SpotError } from "../errors.ts";
import { defaultConfigText } from "./defaults.ts";
import { parseConfig } from "./parse.ts";

function issues(text: string): string {
  try {
    parseConfig("/c.json", text);
  } catch (error) {
    assert.ok(isSpotError(error, "CONFIG_INVALID"), String(error));
    return (error as SpotError).message;
  }
  assert.fail("the config was accepted");
}

Deno.test("parseConfig() accepts the default config with every shipped profile", () => {
  const config = parseConfig("/c.json", defaultConfigText());
  for (
    const name of [
      "volcengine",
      "deepseek",
      "kimi",
      "minimax-m3",
      "gemini-vision",
      "gpt-image",
      "zcode",
      "kimi-cli",
      "trae-cli",
      "qoder-cli",
      "codebuddy-cli",
      "opencode",
      "codex",
      "claude",
      "gemini",
      "qwen",
      "kilo",
      "replay",
    ]
  ) assert.ok(config.profiles[name], name);
  assert.ok(config.alwaysLockedPaths.includes(".github/workflows/**"));
  assert.ok(config.frozenPackageJsonKeys.includes("scripts"));
});

Deno.test("parseConfig() keeps replay when the user's file lists other profiles", () => {
  const config = parseConfig(
    "/c.json",
    JSON.stringify({ profiles: { mine: { provider: "p", model: "m" } } }),
  );
  assert.deepEqual(Object.keys(config.profiles).sort(), ["mine", "replay"]);
});

Deno.test("parseConfig() accepts the configs the existing tests write", () => {
  const config = parseConfig(
    "/c.json",
    JSON.stringify({
      maxConcurrentRuns: 2,
      limits: { maxCapturedCharsPerStream: 500 },
      selfReview: { enabled: false },
      profiles: { f: { adapter: "pi", provider: "fake", model: "m", apiKeyEnv: "K", binary: "/bin/true" } },
    }),
  );
  assert.equal(config.maxConcurrentRuns, 2);
});

Deno.test("parseConfig() reports a type error with its line:col even after a trailing comma", () => {
  const message = issues('{\n  // comment\n  "maxConcurrentRuns": "four",\n  "profiles": {},\n}\n');
  assert.match(message, /\/c\.json:3:3 maxConcurrentRuns: Invalid input: expected number/);
});

Deno.test("parseConfig() locates a fallback or callerProfiles entry naming no profile", () => {
  const message = issues(JSON.stringify(
    {
      callerProfiles: { codex: "ghost" },
      profiles: { a: { provider: "p", model: "m", fallbackProfiles: ["replay", "nope"] } },
    },
    null,
    2,
  ));
  assert.match(message, /:\d+:\d+ profiles\.a\.fallbackProfiles\[1\]: no profile named "nope"/);
  assert.match(message, /:\d+:\d+ callerProfiles\.codex: no profile named "ghost"/);
});

Deno.test("parseConfig() refuses an unknown caller and a misspelled strength", () => {
  const message = issues(JSON.stringify({
    callerProfiles: { vscode: "replay" },
    profiles: { a: { provider: "p", model: "m", strengths: ["backnd"] } },
  }));
  assert.match(message, /callerProfiles/);
  assert.match(message, /profiles\.a\.strengths\[0\]/);
});

Deno.test("parseConfig() refuses a defaultProfile the user named but did not define", () => {
  assert.match(
    issues(JSON.stringify({ defaultProfile: "ghost" })),
    /defaultProfile: no profile named "ghost"/,
  );
});

Deno.test("parseConfig() refuses, with its line:col, a profile setting its worker CLI has no way to take", () => {
  const text = `{
  "profiles": {
    "t": { "adapter": "trae", "provider": "trae", "model": "m", "reasoningEffort": "high" },
    "c": { "adapter": "codex", "provider": "openai", "model": "m", "limits": { "maxTurns": 9 } },
    "k": { "adapter": "claude", "provider": "anthropic", "model": "m", "reasoningEffort": "minimal" }
  }
}`;
  const message = issues(text);
  assert.match(
    message,
    /\/c\.json:3:\d+ profiles\.t\.reasoningEffort: the trae adapter cannot pass reasoningEffort to its CLI: traecli has no/,
  );
  assert.match(
    message,
    /\/c\.json:4:\d+ profiles\.c\.limits\.maxTurns: the codex adapter cannot pass maxTurns/,
  );
  assert.match(message, /\/c\.json:5:\d+ profiles\.k\.reasoningEffort: .*"minimal" is not one of low medium/);
});

Deno.test("parseConfig() accepts the same settings where the CLI takes them, and qoder's legacy piMaxTurns", () => {
  const config = parseConfig(
    "/c.json",
    `{
  "limits": { "piMaxTurns": 25 },
  "profiles": {
    "q": { "adapter": "qoder", "provider": "qoder", "model": "free", "reasoningEffort": "high", "maxContextSize": 200000 },
    "k": { "adapter": "claude", "provider": "anthropic", "model": "m", "reasoningEffort": "max", "limits": { "maxTurns": 9 } }
  }
}`,
  );
  assert.equal(config.profiles.q.limits?.maxTurns, 25);
  assert.equal(config.profiles.k.reasoningEffort, "max");
});

Deno.test("parseConfig() keeps the shipped profiles when the file leaves `profiles` out", () => {
  // The one-line config docs/migration.md shows for the original's exit codes.
  const config = parseConfig("/c.json", '{ "exitCodes": "pi-worker" }');
  assert.equal(config.exitCodes, "pi-worker");
  assert.ok(config.profiles.volcengine, "the default profile is there");
  assert.ok(config.profiles.deepseek && config.profiles.replay);
  // A file that lists its own profiles gets those (and replay), not the shipped set.
  const own = parseConfig(
    "/c.json",
    '{ "defaultProfile": "mine", "profiles": { "mine": { "adapter": "replay", "provider": "replay", "model": "" } } }',
  );
  assert.deepEqual(Object.keys(own.profiles).sort(), ["mine", "replay"]);
});
