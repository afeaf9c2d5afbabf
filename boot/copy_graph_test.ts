import assert from "node:assert/strict";
import {
  commandSets,
  CONFIG_LOADER,
  configFreeWords,
  type CopyGraph,
  lazyImports,
  reachable,
  unreadLazyCalls,
  verbLoads,
} from "./copy_graph.ts";

Deno.test("a module's lazy imports are read from the bundler's text", () => {
  const emitted =
    'const m = () => lazy("./late.ts", import.meta.url);\nconst n = () => lazy(\n  "../x/y.ts",\n  import.meta.url,\n);';
  assert.deepEqual(lazyImports(emitted, "a/mod.ts"), ["a/late.ts", "x/y.ts"]);
});

Deno.test("a lazy() call whose module is not a literal is counted, so the build refuses it", () => {
  const read = 'const m = () => lazy("./late.ts", import.meta.url);';
  assert.equal(unreadLazyCalls(read), 0);
  // The definition and a method of the same name (zod's) are not calls of spot's lazy().
  assert.equal(unreadLazyCalls("function lazy(specifier, base) {}\nconst s = z.lazy(() => t);"), 0);
  assert.equal(unreadLazyCalls(`${read}\nconst n = (name) => lazy(\`./\${name}.ts\`, import.meta.url);`), 1);
  assert.equal(unreadLazyCalls("const spec = './x.ts';\nlazy(spec, import.meta.url);"), 1);
});

const table = {
  rel: "table/loop.ts",
  text: [
    "const verbs = {",
    '  prepare: () => lazy<typeof import("../verbs/prepare.ts")>("../verbs/prepare.ts", import.meta.url),',
    "  run: () =>",
    '    lazy<typeof import("../verbs/run.ts")>("../verbs/run.ts", import.meta.url),',
    '  start: () => lazy<typeof import("../agents/start.ts")>("../agents/start.ts", import.meta.url),',
    '  review: () => lazy<typeof import("../verbs/self_review.ts")>("../verbs/self_review.ts", import.meta.url),',
    '  approve: () => lazy<typeof import("../verbs/approve.ts")>("../verbs/approve.ts", import.meta.url),',
    "};",
    'const serve = () => lazy<typeof import("../serve/mod.ts")>("../serve/mod.ts", import.meta.url);',
    'const config = () => lazy<typeof import("../verbs/config.ts")>("../verbs/config.ts", import.meta.url);',
    'const review = (verdict) => doc("review", verdict);',
    "export const V = [",
    '  verb({ name: "approve", input: { review: review("approve") }, run: async (c) => (await verbs.approve()).go(c) }),',
    '  bareVerb({ name: "config show", bare: async () => (await config()).show() }),',
    '  verb({ name: "prepare", run: async (c) => (await verbs.prepare()).prepare(c) }),',
    '  verb({ name: "run", alias: "go", run: async (c, i) => i.detach',
    "    ? (await verbs.start()).start(c) : (await verbs.run()).run(c) }),",
    '  verb({ name: "dashboard", run: async (c) => (await serve()).snapshot(c) }),',
    '  verb({ name: "paths", run: async () =>',
    '    (await lazy<typeof import("../store/paths.ts")>("../store/paths.ts", import.meta.url)).paths() }),',
    "];",
  ].join("\n"),
};

Deno.test("each word counts the modules its verbs' declarations load, under its alias too", () => {
  const loads = verbLoads(table);
  assert.deepEqual(loads.get("prepare"), ["verbs/prepare.ts"]);
  assert.deepEqual(loads.get("run")?.sort(), ["agents/start.ts", "verbs/run.ts"]);
  assert.deepEqual(loads.get("go")?.sort(), ["agents/start.ts", "verbs/run.ts"]);
  assert.deepEqual(loads.get("dashboard"), ["serve/mod.ts"]);
  assert.deepEqual(loads.get("paths"), ["store/paths.ts"]);
  // A helper named like a loader (`review("approve")`) is not the loader `verbs.review()`.
  assert.deepEqual(loads.get("approve"), ["verbs/approve.ts"]);
  // bareVerb and hostVerb declarations are verbs too: config's block is its own, not the one before it.
  assert.deepEqual(loads.get("config"), ["verbs/config.ts"]);
});

Deno.test("a word's set follows imports and lazy imports, but not a table's or the CLI's branches", () => {
  const modules = [
    "cli/main.ts", // 0
    "table/loop.ts", // 1
    "verbs/prepare.ts", // 2
    "verbs/run.ts", // 3
    "gates/x.ts", // 4
    "sandbox/mac.ts", // 5
    "cli/program.ts", // 6
    "base/y.ts", // 7
  ];
  const graph: CopyGraph = {
    modules,
    code: [[1], [7], [4], [], [], [], [], []],
    lazy: [[6], [2, 3], [5], [], [], [], [], []],
  };
  assert.deepEqual(reachable(graph, ["cli/main.ts"]), [0, 1, 7]);
  assert.deepEqual(reachable(graph, ["verbs/prepare.ts"]), [2, 4, 5]);
  const sets = commandSets(graph, { prepare: "loop" }, [{ rel: "table/loop.ts", text: table.text }]);
  // The CLI's own roots (commander's program among them), the table, prepare's module and what it loads.
  assert.deepEqual(sets.prepare, [0, 1, 2, 4, 5, 6, 7]);
  assert.ok(!sets.prepare.includes(3), "run's module is not prepare's");
  assert.deepEqual(sets["--version"], [0, 1, 7]);
});

Deno.test("a word whose verbs all declare loadConfig: false leaves the config's loader out of its set", () => {
  const runs = {
    rel: "table/runs.ts",
    text: [
      "export const V = [",
      '  verb({ name: "inspect", loadConfig: false, run: async () => {} }),',
      '  verb({ name: "list", run: async () => {} }),',
      '  verb({ name: "skill install", loadConfig: false, run: async () => {} }),',
      '  verb({ name: "skill show", run: async () => {} }),',
      "];",
    ].join("\n"),
  };
  // `skill` has a verb that loads the config: the word keeps the loader.
  assert.deepEqual([...configFreeWords(runs)], ["inspect"]);
  const modules = ["cli/main.ts", "config/context.ts", "config/load.ts", "adapters/x.ts", "table/runs.ts"];
  assert.deepEqual(CONFIG_LOADER, [modules[1], modules[2]]);
  const graph: CopyGraph = { modules, code: [[1], [], [3], [], []], lazy: [[], [2], [], [], []] };
  const sets = commandSets(graph, { inspect: "runs", list: "runs" }, [runs]);
  assert.deepEqual(sets.list, [0, 1, 2, 3, 4]);
  assert.deepEqual(sets.inspect, [0, 1, 4], "no config/load.ts, nor what it imports");
});
