import assert from "node:assert/strict";
import { join } from "node:path";
import { isSpotError, type SpotError } from "../errors.ts";
import { type ConfigWarning, formatWarning } from "./load.ts";
import { defaultConfigText } from "./defaults.ts";
import { readConfig } from "./parse.ts";
import { mapLegacyConfig } from "./legacy.ts";

const FIXTURE = join(import.meta.dirname!, "..", "tests", "fixtures", "legacy", "config.json");

const keys = (warnings: ConfigWarning[]) => warnings.map((w) => w.key).sort();
const one = (warnings: ConfigWarning[], key: string) => {
  const hits = warnings.filter((w) => w.key === key);
  assert.equal(hits.length, 1, `${key}: ${JSON.stringify(warnings, null, 1)}`);
  return hits[0];
};
const json = (value: unknown) => JSON.stringify(value, null, 2);

function refusal(text: string): string {
  try {
    readConfig("/c.json", text);
  } catch (error) {
    assert.ok(isSpotError(error, "CONFIG_INVALID"), String(error));
    return (error as SpotError).message;
  }
  assert.fail("the config was accepted");
}

Deno.test("the original's default config loads, one warning per legacy key, each at its line:col", async () => {
  const text = await Deno.readTextFile(FIXTURE);
  const { config, warnings } = readConfig("/c.json", text);
  assert.deepEqual(keys(warnings), [
    "codexRateCard",
    "codexSubscription",
    "limits.piTimeoutSeconds",
    "minimumPiVersion",
    "profiles.*.monthlyPlan",
    "profiles.kimi-cli.providerType",
    "profiles.qoder-cli.model",
    "retryDelaysMs",
  ]);
  assert.equal(one(warnings, "limits.piTimeoutSeconds").newKey, "limits.workerTimeoutSeconds");
  assert.equal(one(warnings, "codexRateCard").newKey, "parentRateCard");
  assert.equal(one(warnings, "minimumPiVersion").newKey, null);
  assert.match(one(warnings, "minimumPiVersion").message, /^ignored: spot checks each worker CLI/);
  assert.match(one(warnings, "retryDelaysMs").message, /maxRetries/);
  assert.match(
    one(warnings, "profiles.*.monthlyPlan").message,
    /\(in volcengine, deepseek, kimi, .*qoder-cli\)/,
  );
  const line = (key: string) => text.split("\n").findIndex((l) => l.includes(`"${key}"`)) + 1;
  const w = one(warnings, "limits.piTimeoutSeconds");
  assert.deepEqual([w.line, w.col], [line("piTimeoutSeconds"), 5]);
  assert.equal(
    formatWarning("/c.json", one(warnings, "minimumPiVersion")),
    `/c.json:${line("minimumPiVersion")}:3 minimumPiVersion: ${one(warnings, "minimumPiVersion").message}`,
  );
  assert.equal(config.limits.workerTimeoutSeconds, 1800);
  assert.equal(config.limits.maxDiffBytes, 2_000_000);
  assert.equal(config.parentRateCard?.model, "gpt-5.6-sol");
  assert.equal(config.codexRateCard, undefined);
  assert.equal(config.parentSubscription?.weeklyAllowanceCredits, 140);
  assert.equal(config.profiles["kimi-cli"].providerType, undefined);
  assert.equal(config.profiles["qoder-cli"].model, "default");
  assert.deepEqual(config.profiles.volcengine.fallbackProfiles, ["deepseek"]);
  assert.ok(config.profiles.replay);
});

Deno.test("spot's own default config has no legacy key", () => {
  assert.deepEqual(readConfig("/c.json", defaultConfigText()).warnings, []);
});

Deno.test("when the old and the new key are both set, the new one wins and the warning says so", () => {
  const { config, warnings } = readConfig(
    "/c.json",
    json({ limits: { piTimeoutSeconds: 60, workerTimeoutSeconds: 90 } }),
  );
  assert.equal(config.limits.workerTimeoutSeconds, 90);
  assert.equal(
    one(warnings, "limits.piTimeoutSeconds").message,
    "ignored: limits.workerTimeoutSeconds is also set and wins",
  );
});

Deno.test("limits.piMaxTurns becomes the cap of each qoder profile that has none", () => {
  const q = (limits?: object) => ({
    adapter: "qoder",
    provider: "qoder",
    model: "m",
    ...(limits ? { limits } : {}),
  });
  const { config, warnings } = readConfig(
    "/c.json",
    json({
      limits: { piMaxTurns: 25 },
      profiles: { a: q(), b: q({ maxTurns: 7 }), c: { provider: "p", model: "m" } },
    }),
  );
  assert.equal(config.profiles.a.limits?.maxTurns, 25);
  assert.equal(config.profiles.b.limits?.maxTurns, 7);
  assert.equal(config.profiles.c.limits, undefined);
  assert.match(
    one(warnings, "limits.piMaxTurns").message,
    /moved to profiles\.<name>\.limits\.maxTurns of a \(/,
  );
  const none = readConfig("/c.json", json({ limits: { piMaxTurns: 25 } })).warnings;
  assert.match(one(none, "limits.piMaxTurns").message, /^ignored: .*no profile uses qoder/);
});

Deno.test("Kimi's own provider types map on kimi profiles and are dropped elsewhere", () => {
  const { config, warnings } = readConfig(
    "/c.json",
    json({
      profiles: {
        k: { adapter: "kimi", provider: "moon", model: "m", providerType: "openai_legacy" },
        p: { provider: "moon", model: "m", providerType: "anthropic" },
        s: { adapter: "kimi", provider: "moon", model: "m", providerType: "anthropic-messages" },
      },
    }),
  );
  assert.equal(config.profiles.k.providerType, "openai-completions");
  assert.equal(config.profiles.p.providerType, undefined);
  assert.equal(config.profiles.s.providerType, "anthropic-messages");
  assert.equal(one(warnings, "profiles.k.providerType").newKey, "profiles.k.providerType");
  assert.match(one(warnings, "profiles.p.providerType").message, /kimi adapter only/);
  assert.equal(warnings.length, 2);
});

Deno.test("balance settings are dropped with one warning per key", () => {
  const profile = { provider: "p", model: "m", balanceAdapter: "x", balanceConfig: { a: 1 } };
  const { warnings } = readConfig("/c.json", json({ profiles: { a: profile, b: { ...profile } } }));
  assert.deepEqual(keys(warnings), ["profiles.*.balanceAdapter", "profiles.*.balanceConfig"]);
  const single = readConfig(
    "/c.json",
    json({ profiles: { a: { provider: "p", model: "m", balanceAdapter: "x" } } }),
  );
  assert.deepEqual(keys(single.warnings), ["profiles.a.balanceAdapter"]);
});

Deno.test("an older subscription without a weekly allowance is dropped with a warning, not refused", () => {
  const { config, warnings } = readConfig(
    "/c.json",
    json({ codexSubscription: { plan: "plus", monthlyUsd: 20 } }),
  );
  assert.equal(config.parentSubscription, undefined);
  assert.match(one(warnings, "codexSubscription").message, /no weeklyAllowanceCredits/);
  assert.equal(warnings.length, 1);
});

Deno.test("a key neither tool knows is still refused, at its line:col", () => {
  const text = '{\n  "minimumPiVersion": "0.80.10",\n  "piColour": "red"\n}\n';
  assert.match(refusal(text), /\/c\.json:3:3 piColour: Unrecognized key/);
  const perProfile = json({ profiles: { a: { provider: "p", model: "m", selfReview: { enabled: false } } } });
  assert.match(refusal(perProfile), /:\d+:\d+ profiles\.a\.selfReview: Unrecognized key/);
});

Deno.test("a bad value under a renamed key is reported at the old key, as written", () => {
  const text = '{\n  "limits": {\n    "piTimeoutSeconds": 0\n  }\n}\n';
  assert.match(refusal(text), /\/c\.json:3:5 limits\.piTimeoutSeconds: Too small/);
});

Deno.test("mapLegacyConfig() leaves its input alone and records the edits in order", () => {
  const raw = { codexRateCard: { model: "m" }, limits: { piTimeoutSeconds: 5 } };
  const before = structuredClone(raw);
  const mapped = mapLegacyConfig(raw);
  assert.deepEqual(raw, before);
  assert.deepEqual(mapped.value, { parentRateCard: { model: "m" }, limits: { workerTimeoutSeconds: 5 } });
  assert.deepEqual(mapped.edits, [
    { path: ["codexRateCard"], renameTo: "parentRateCard" },
    { path: ["limits", "piTimeoutSeconds"], renameTo: "workerTimeoutSeconds" },
  ]);
  assert.deepEqual(mapLegacyConfig([1, 2]).notes, []);
});
