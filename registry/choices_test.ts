import assert from "node:assert/strict";
import { Config } from "../schemas/config.ts";
import { buildWorkerChoices, choiceLabel, resolveProfileForSelection } from "./choices.ts";
import { matchesFilter } from "./picker.ts";
import type { CliInfo, Registry } from "./types.ts";

const cli = (adapter: string, installed: boolean, models: string[] = []): CliInfo => ({
  adapter,
  installed,
  binary: installed ? `/bin/${adapter}` : null,
  foundVia: installed ? "path" : null,
  version: null,
  minimumVersion: null,
  versionOk: null,
  models: models.map((id) => ({ id })),
  modelsSource: "cli",
});

const registry = (clis: CliInfo[]): Registry => ({ schemaVersion: 1, detectedAt: "", envKey: "", clis });

const CONFIG = Config.parse({
  profiles: {
    "pi-premium": { adapter: "pi", provider: "p", model: "big", costTier: "premium" },
    "pi-cheap": { adapter: "pi", provider: "p", model: "small", costTier: "cheap" },
    oc: { adapter: "opencode", provider: "o", model: "auto" },
    "oc-pinned": { adapter: "opencode", provider: "o", model: "opencode/pinned" },
    kimi: { adapter: "kimi", provider: "k", model: "k1", costTier: "standard" },
    replay: { adapter: "replay", provider: "replay", model: "" },
  },
});

Deno.test("resolveProfileForSelection() prefers an exact model, then a CLI-default profile, then the first", () => {
  assert.equal(resolveProfileForSelection(CONFIG, "opencode", "opencode/pinned"), "oc-pinned");
  assert.equal(resolveProfileForSelection(CONFIG, "opencode", "opencode/other"), "oc");
  assert.equal(resolveProfileForSelection(CONFIG, "pi", "unknown"), "pi-premium");
  assert.equal(resolveProfileForSelection(CONFIG, "codex", "x"), null);
});

Deno.test("buildWorkerChoices() merges detected models with profiles and drops CLIs not installed", () => {
  const rows = buildWorkerChoices(
    registry([cli("opencode", true, ["opencode/hy3-free", "opencode/pinned"]), cli("kimi", false)]),
    CONFIG,
  );
  const keys = rows.map((r) => r.key);
  assert.ok(!keys.some((k) => k.startsWith("kimi")), "kimi is not installed");
  assert.ok(!keys.some((k) => k.startsWith("replay")), "replay needs an episode, not a pick");
  assert.equal(keys[0], "opencode opencode/hy3-free", "free rows come first");
  assert.equal(rows[0].profile, "oc");
  assert.equal(keys.filter((k) => k === "opencode opencode/pinned").length, 1, "no duplicates");
  assert.deepEqual(keys.slice(1, 3), ["pi small", "pi big"], "then by cost tier");
});

Deno.test("buildWorkerChoices() keeps profiles of CLIs detection never probed", () => {
  const rows = buildWorkerChoices(registry([]), CONFIG);
  assert.ok(rows.some((r) => r.adapter === "kimi"));
});

Deno.test("choiceLabel() marks free rows and tiers; matchesFilter() needs every typed word", () => {
  const [free] = buildWorkerChoices(registry([cli("opencode", true, ["opencode/hy3-free"])]), CONFIG);
  assert.match(choiceLabel(free), /opencode\s+opencode\/hy3-free \[free\]/);
  assert.ok(matchesFilter("hy3 free", choiceLabel(free)));
  assert.ok(!matchesFilter("hy3 premium", choiceLabel(free)));
  assert.ok(matchesFilter("", "anything"));
});
