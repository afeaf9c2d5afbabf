import assert from "node:assert/strict";
import {
  commandSets,
  type CopyGraph,
  lazyImports,
  leftovers,
  reachable,
  staticImports,
  transformEmitted,
  verbLoads,
} from "./copy_graph.ts";

const emitted = [
  'import { a } from "./a.ts";',
  'import { b } from "../b/b.ts";',
  'export { c } from "./c.ts";',
  'import "./side.ts";',
  'import data from "../data.json" with { type: "json" };',
  'import { z } from "zod";',
  'const m = () => lazy("./late.ts", import.meta.url);',
  "export const here = import.meta.url;",
  "if (import.meta.main) run();",
].join("\n");

Deno.test("a module's imports are read as it loads them, and its lazy ones apart", () => {
  assert.deepEqual(staticImports(emitted, "x/mod.ts"), ["x/a.ts", "b/b.ts", "x/c.ts", "x/side.ts"]);
  assert.deepEqual(lazyImports(emitted, "x/mod.ts"), ["x/late.ts"]);
});

Deno.test("the copy's module imports the copy's JavaScript and finds everything else in the checkout", () => {
  const out = transformEmitted(emitted, "x/mod.ts", "file:///src/spot/");
  assert.match(out, /from "\.\/a\.js"/);
  assert.match(out, /from "\.\.\/b\/b\.js"/);
  assert.match(out, /export \{ c \} from "\.\/c\.js"/);
  assert.match(out, /import "\.\/side\.js"/);
  assert.match(out, /from "file:\/\/\/src\/spot\/data\.json"/);
  assert.match(out, /from "zod"/);
  assert.match(out, /lazy\("\.\/late\.ts", "file:\/\/\/src\/spot\/x\/mod\.ts"\)/);
  assert.match(out, /if \(false\) run\(\)/);
  assert.deepEqual(leftovers(emitted, out), []);
});

Deno.test("a module the transform cannot make whole is refused", () => {
  const strange = 'const s = "import.meta.url";\nexport const u = import.meta.resolve("./x.ts");';
  const out = transformEmitted(strange, "m.ts", "file:///src/");
  assert.deepEqual(leftovers(strange, out), ["import.meta in a string", "import.meta"]);
});

const table = {
  rel: "table/loop.ts",
  text: [
    "const verbs = {",
    '  prepare: () => lazy<typeof import("../verbs/prepare.ts")>("../verbs/prepare.ts", import.meta.url),',
    "  run: () =>",
    '    lazy<typeof import("../verbs/run.ts")>("../verbs/run.ts", import.meta.url),',
    '  start: () => lazy<typeof import("../agents/start.ts")>("../agents/start.ts", import.meta.url),',
    "};",
    'const serve = () => lazy<typeof import("../serve/mod.ts")>("../serve/mod.ts", import.meta.url);',
    "export const V = [",
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
