import assert from "node:assert/strict";
import { isSpotError } from "../errors.ts";
import { Config } from "../schemas/config.ts";
import type { RoutableTask } from "./difficulty.ts";
import { fallbackChain, nextFallback } from "./fallback.ts";
import { type ProfileChoice, type SelectOptions, selectProfile } from "./select_profile.ts";

const CONFIG = Config.parse({
  defaultProfile: "std-a",
  callerProfiles: { "claude-code": "cheap-b", codex: "text-only" },
  profiles: {
    "cheap-a": { provider: "p", model: "m1", costTier: "cheap" },
    "cheap-b": { provider: "p", model: "m2", costTier: "cheap", fallbackProfiles: ["std-a"] },
    "std-a": { provider: "p", model: "m3", costTier: "standard", fallbackProfiles: ["std-b"] },
    "std-b": {
      provider: "p",
      model: "m4",
      costTier: "standard",
      strengths: ["backend"],
      fallbackProfiles: ["prem", "std-a"],
    },
    prem: { provider: "p", model: "m5", costTier: "premium" },
    vision: { provider: "p", model: "m6", costTier: "premium", modalities: ["text", "vision"] },
    "text-only": { provider: "p", model: "m7", fallbackProfiles: ["vision"] },
  },
});

const BASE: RoutableTask = {
  goal: "Change the wording of a log message",
  risk: "low",
  acceptanceCriteria: ["the message reads as asked"],
  verification: [{ argv: ["deno", "test"], timeoutSeconds: 60 }],
  constraints: [],
  requiredCapabilities: ["text", "code"],
};

interface Row {
  rule: string;
  task: Partial<RoutableTask>;
  options?: SelectOptions;
  expect:
    & Partial<Pick<ProfileChoice["routing"], "profile" | "profileSource" | "difficulty" | "difficultySource">>
    & {
      tier?: string;
      score?: number;
      chain?: string[];
      error?: string;
    };
}

const many = (n: number, what: string) => Array.from({ length: n }, (_, i) => `${what} ${i}`);

const ROWS: Row[] = [
  {
    rule: "a declared difficulty wins over the inferred one",
    task: { difficulty: "high", risk: "low" },
    expect: { profile: "prem", difficulty: "high", difficultySource: "explicit", tier: "premium", score: 0 },
  },
  {
    rule: "medium risk plus a backend domain is inferred medium",
    task: { risk: "medium", domain: "backend" },
    expect: {
      profile: "std-b",
      difficulty: "medium",
      difficultySource: "inferred",
      score: 2,
      tier: "standard",
    },
  },
  {
    rule: "medium risk in a docs domain stays low (the near miss of the row above)",
    task: { risk: "medium", domain: "docs" },
    expect: { profile: "cheap-a", difficulty: "low", score: 1, tier: "cheap" },
  },
  {
    rule: "size signals add at most +2, so a long contract is not high",
    task: {
      acceptanceCriteria: many(9, "criterion"),
      constraints: many(6, "constraint"),
      verification: many(3, "check").map((c) => ({ argv: ["echo", c], timeoutSeconds: 5 })),
      requiredCapabilities: ["text", "code", "tool-use"],
    },
    expect: { difficulty: "medium", score: 2, tier: "standard", profile: "std-a" },
  },
  {
    rule: "modality is a hard filter: a vision task skips the text-only tiers",
    task: { difficulty: "medium", requiredCapabilities: ["text", "code", "vision-input"] },
    expect: { profile: "vision", profileSource: "difficulty", tier: "standard" },
  },
  {
    rule: "callerProfiles comes before difficulty routing",
    task: { difficulty: "medium" },
    options: { caller: "claude-code" },
    expect: { profile: "cheap-b", profileSource: "caller", chain: ["std-a", "std-b", "prem"] },
  },
  {
    rule: "a caller preference lacking a modality moves along its own fallback chain",
    task: { requiredCapabilities: ["text", "code", "vision-input"] },
    options: { caller: "codex" },
    expect: { profile: "vision", profileSource: "caller" },
  },
  {
    rule: "--profile overrides the caller's preference",
    task: {},
    options: { caller: "claude-code", profile: "prem" },
    expect: { profile: "prem", profileSource: "flag" },
  },
  {
    rule: "the fallback chain is followed depth-first, each profile once",
    task: { risk: "medium", domain: "backend" },
    expect: { profile: "std-b", chain: ["prem", "std-a"] },
  },
  {
    rule: "high risk without an explicit profile is refused",
    task: { risk: "high" },
    options: { caller: "claude-code" },
    expect: { error: "HIGH_RISK_BLOCKED" },
  },
  {
    rule: "high risk is refused even with an explicit profile",
    task: { risk: "high" },
    options: { profile: "prem" },
    expect: { error: "HIGH_RISK_BLOCKED" },
  },
  {
    rule: "an explicit profile without the modality a task needs is refused",
    task: { requiredCapabilities: ["text", "code", "vision-input"] },
    options: { profile: "text-only" },
    expect: { error: "CAPABILITY_MISMATCH" },
  },
  {
    rule: "a picked profile without the modality a task needs is refused too",
    task: { requiredCapabilities: ["text", "code", "image-output"] },
    options: { profile: "vision", profileSource: "picker" },
    expect: { error: "CAPABILITY_MISMATCH" },
  },
];

for (const row of ROWS) {
  Deno.test(`selectProfile(): ${row.rule}`, () => {
    const task = { ...BASE, ...row.task };
    if (row.expect.error) {
      assert.throws(
        () => selectProfile(CONFIG, task, row.options ?? {}),
        (e) => isSpotError(e, row.expect.error as "HIGH_RISK_BLOCKED" | "CAPABILITY_MISMATCH"),
      );
      return;
    }
    const { routing } = selectProfile(CONFIG, task, row.options ?? {});
    const { tier, score, chain, ...fields } = row.expect;
    for (const [key, value] of Object.entries(fields)) {
      assert.equal(routing[key as keyof typeof routing], value, `${key} in ${JSON.stringify(routing)}`);
    }
    if (tier) assert.equal(routing.targetTier, tier);
    if (score !== undefined) assert.equal(routing.score, score, routing.signals.join(" "));
    if (chain) assert.deepEqual(routing.fallbackChain, chain);
  });
}

Deno.test("selectProfile() records the candidates it considered", () => {
  const { routing } = selectProfile(CONFIG, { ...BASE, difficulty: "medium" }, {});
  assert.deepEqual(routing.candidatesConsidered, ["std-a", "std-b"]);
  assert.match(routing.matchReason, /costTier standard/);
});

Deno.test("selectProfile() falls back to defaultProfile when no profile has a costTier", () => {
  const config = Config.parse({ defaultProfile: "only", profiles: { only: { provider: "p", model: "m" } } });
  const { routing } = selectProfile(config, BASE, {});
  assert.equal(routing.profile, "only");
  assert.equal(routing.profileSource, "default");
});

Deno.test("selectProfile() refuses a task no profile can serve instead of routing around it", () => {
  const task = { ...BASE, requiredCapabilities: ["text" as const, "image-output" as const] };
  assert.throws(() => selectProfile(CONFIG, task, {}), (e) => isSpotError(e, "NO_ROUTABLE_PROFILE"));
});

Deno.test("nextFallback() walks the chain, skipping profiles already tried", () => {
  assert.deepEqual(fallbackChain(CONFIG, "std-a"), ["std-b", "prem"]);
  assert.equal(nextFallback(CONFIG, "std-a", ["std-a"]), "std-b");
  assert.equal(nextFallback(CONFIG, "std-a", ["std-a", "std-b"]), "prem");
  assert.equal(nextFallback(CONFIG, "std-a", ["std-a", "std-b", "prem"]), null);
  assert.equal(nextFallback(CONFIG, "cheap-a", []), null);
});

Deno.test("nextFallback() skips a profile without a required capability", () => {
  assert.equal(
    nextFallback(CONFIG, "text-only", [], { requiredCapabilities: ["text", "vision-input"] }),
    "vision",
  );
  assert.equal(nextFallback(CONFIG, "std-a", [], { requiredCapabilities: ["text", "vision-input"] }), null);
});

/** A judgement where only the profiles in `down` have a problem. */
const readyExcept = (...down: string[]): SelectOptions["ready"] => (name) =>
  down.includes(name)
    ? [{ name: "credential", detail: `${name}'s key is not set`, fix: "export KEY=..." }]
    : [];

Deno.test("selectProfile() routes past profiles that are not ready, recording them, and keeps a named one", () => {
  const low = { ...BASE };
  const routed = selectProfile(CONFIG, low, { ready: readyExcept("cheap-a", "cheap-b") });
  assert.equal(routed.name, "std-a");
  assert.deepEqual(routed.routing.notReady?.map((n) => n.profile), ["cheap-a", "cheap-b"]);
  // The caller's preference is routing too: not ready, it gives way along its chain.
  const caller = selectProfile(CONFIG, low, { caller: "claude-code", ready: readyExcept("cheap-b") });
  assert.deepEqual([caller.name, caller.routing.profileSource], ["std-a", "caller"]);
  // A profile someone named is taken as named.
  const named = selectProfile(CONFIG, low, { profile: "cheap-a", ready: readyExcept("cheap-a") });
  assert.deepEqual([named.name, named.routing.notReady], ["cheap-a", undefined]);
});

Deno.test("selectProfile() refuses with every candidate's problems when none is ready", () => {
  const all = Object.keys(CONFIG.profiles);
  assert.throws(
    () => selectProfile(CONFIG, BASE, { ready: readyExcept(...all) }),
    (e) => {
      assert.ok(isSpotError(e, "NO_ROUTABLE_PROFILE"));
      const notReady = e.details.notReady as { profile: string; problems: { fix?: string }[] }[];
      assert.deepEqual(notReady.map((n) => n.profile), [
        "cheap-a",
        "cheap-b",
        "std-a",
        "std-b",
        "prem",
        "vision",
      ]);
      assert.ok(notReady.every((n) => n.problems[0].fix));
      assert.equal(e.details.replay, undefined, "no replay profile in this config: not offered");
      return true;
    },
  );
});
