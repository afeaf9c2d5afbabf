/** The settings table, its refusals, and how each adapter's plan carries what the table routes. */
import { deepStrictEqual, equal, ok } from "node:assert/strict";
import { getAdapter } from "../mod.ts";
import { ADAPTER_SETTINGS, SETTING_KEYS, settingFlags, settingProblems } from "./settings.ts";
import type { AdapterProfile, LaunchPlan } from "../types.ts";

const ADAPTERS = [
  "pi",
  "replay",
  "opencode",
  "codex",
  "claude",
  "gemini",
  "qwen",
  "kilo",
  "kimi",
  "qoder",
  "trae",
  "codebuddy",
  "zcode",
];

function plan(adapter: string, extra: Partial<AdapterProfile> = {}): LaunchPlan {
  const a = getAdapter(adapter);
  ok(a, adapter);
  return a.plan({
    runId: "r1",
    phase: "run",
    worktree: "/w/tree",
    runDir: "/w/run",
    homeDir: "/w/run/home",
    binary: `/opt/bin/${adapter}`,
    profile: {
      name: "p",
      adapter,
      provider: "acme",
      model: "acme-coder",
      baseUrl: "http://127.0.0.1:9/v1",
      ...extra,
    },
    promptFile: "/w/run/prompt.md",
    prompt: "Fix it",
    baseEnv: { PATH: "/usr/bin" },
  });
}

const file = (p: LaunchPlan, suffix: string) => p.files.find((f) => f.path.endsWith(suffix))?.content ?? "";
const json = (p: LaunchPlan, suffix: string) => JSON.parse(file(p, suffix));
/** Everything a plan hands its CLI, as one string to search. */
const everything = (p: LaunchPlan) =>
  [p.argv.join(" "), JSON.stringify(p.env), ...p.files.map((f) => f.content)].join("\n");

Deno.test("the settings table has a row for every adapter, and a route or a reason for every setting", () => {
  for (const name of ADAPTERS) {
    ok(getAdapter(name), name);
    const row = ADAPTER_SETTINGS[name];
    ok(row, `no settings row for ${name}`);
    for (const key of SETTING_KEYS) {
      const route = row[key];
      ok(route.via === "none" ? route.why.length > 0 : route.name.length > 0, `${name}.${key}`);
    }
  }
  deepStrictEqual(Object.keys(ADAPTER_SETTINGS).sort(), [...ADAPTERS].sort());
});

Deno.test("settingProblems() refuses a setting the adapter has no way to pass, naming the path", () => {
  deepStrictEqual(settingProblems({ adapter: "trae", reasoningEffort: "high" }).map((p) => p.path), [
    ["reasoningEffort"],
  ]);
  const turns = settingProblems({ adapter: "codex", limits: { maxTurns: 9 } });
  deepStrictEqual(turns.map((p) => p.path), [["limits", "maxTurns"]]);
  ok(/codex adapter cannot pass maxTurns to its CLI: codex exec has no turn limit/.test(turns[0].message));
  deepStrictEqual(
    settingProblems({ adapter: "claude", reasoningEffort: "high", limits: { maxTurns: 3 } }),
    [],
  );
  deepStrictEqual(settingProblems({ adapter: "no-such-cli", reasoningEffort: "high" }), []);
});

Deno.test("settingProblems() refuses a value the CLI does not take, and a config entry spot would not write", () => {
  ok(/"max" is not one of minimal low medium high xhigh/.test(
    settingProblems({ adapter: "pi", reasoningEffort: "max" })[0].message,
  ));
  ok(/"minimal" is not one of low medium high xhigh max/.test(
    settingProblems({ adapter: "claude", reasoningEffort: "minimal" })[0].message,
  ));
  ok(
    /only for a profile with a baseUrl/.test(
      settingProblems({ adapter: "pi", maxContextSize: 9 })[0].message,
    ),
  );
  deepStrictEqual(settingProblems({ adapter: "pi", maxContextSize: 9, baseUrl: "http://x/v1" }), []);
});

Deno.test("a refused setting would be silently dropped: trae's plan has no place for any of them", () => {
  // The bad outcome the refusal prevents: the plan is the same with or without the settings.
  const plain = everything(plan("trae"));
  const set = everything(plan("trae", { reasoningEffort: "xhigh", maxContextSize: 777_777, maxTurns: 42 }));
  equal(set, plain);
});

Deno.test("flag routes: claude, qoder and qwen get the table's flags; claude's context goes by env", () => {
  const values = { reasoningEffort: "high", maxContextSize: 400_000, maxTurns: 7 };
  deepStrictEqual(settingFlags("qoder", values), [
    "--reasoning-effort",
    "high",
    "--context-window",
    "400000",
    "--max-turns",
    "7",
  ]);
  const claude = plan("claude", values);
  ok(claude.argv.join(" ").includes("--effort high --max-turns 7"), claude.argv.join(" "));
  equal(claude.env.CLAUDE_CODE_AUTO_COMPACT_WINDOW, "400000");
  const qoder = plan("qoder", values).argv;
  ok(
    qoder.join(" ").includes("--reasoning-effort high --context-window 400000 --max-turns 7"),
    qoder.join(" "),
  );
  equal(qoder.at(-1), "-", "the stdin marker stays last");
  ok(plan("qwen", values).argv.join(" ").includes("--max-session-turns 7"));
});

Deno.test("config routes: each CLI's own file carries the setting spot writes it", () => {
  const values = { reasoningEffort: "high", maxContextSize: 400_000, maxTurns: 7 };
  const qwen = json(plan("qwen", values), ".qwen/settings.json").model.generationConfig;
  deepStrictEqual([qwen.reasoning, qwen.contextWindowSize], [{ effort: "high" }, 400_000]);
  equal(json(plan("gemini", { maxTurns: 7 }), ".gemini/settings.json").model.maxSessionTurns, 7);
  const codex = file(plan("codex", { reasoningEffort: "low", maxContextSize: 400_000 }), "config.toml");
  ok(
    codex.includes('model_reasoning_effort = "low"') && codex.includes("model_context_window = 400000"),
    codex,
  );
  const kimi = file(plan("kimi", { maxContextSize: 1_048_576, maxTurns: 7 }), "config.toml");
  ok(kimi.includes("max_context_size = 1048576") && kimi.includes("max_steps_per_turn = 7"), kimi);
  ok(file(plan("kimi"), "config.toml").includes("max_context_size = 262144"), "kimi's default window");
  for (const cli of ["opencode", "kilo"]) {
    const config = json(plan(cli, { reasoningEffort: "high", maxTurns: 7 }), `${cli}.json`);
    deepStrictEqual(config.provider.acme.models["acme-coder"].options, { reasoningEffort: "high" }, cli);
    deepStrictEqual(config.agent, { build: { steps: 7 } }, cli);
  }
  const pi = plan("pi", { reasoningEffort: "minimal", maxContextSize: 400_000, thinking: "high" });
  ok(pi.argv.join(" ").includes("--thinking minimal"), "reasoningEffort wins over pi's own thinking");
  deepStrictEqual(json(pi, "models.json").providers.acme.models[0], {
    id: "acme-coder",
    reasoning: true,
    contextWindow: 400_000,
  });
  deepStrictEqual(json(plan("pi"), "models.json").providers.acme.models[0], { id: "acme-coder" });
  ok(plan("pi").argv.join(" ").includes("--thinking high"), "pi's default");
});
