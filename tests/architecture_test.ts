/**
 * The map in docs/architecture.md, held against the code: every folder it
 * names exists, every source folder is on it, imports run one way (down the
 * layers, never up, and no loop between folders or files), and no folder or
 * file outgrows the size a reader can take in.
 */
import assert from "node:assert/strict";
import { dirname, join, normalize, relative } from "node:path";
import { ROOT } from "./helpers.ts";

/** Above this, a folder or a file no longer says what it does at a glance. */
const MAX_SOURCE_FILES = 20;
const MAX_FILES = 24;
const MAX_LINES = 300;
/** Recorded data, not code a reader navigates. */
const DATA_DIRS = [
  "tests/fixtures/",
  ".workers/",
  ".js-copy/",
  "dist/",
  "test-output/",
  "node_modules/",
  ".git/",
];

async function walk(dir: string, out: string[] = []): Promise<string[]> {
  for await (const entry of Deno.readDir(join(ROOT, dir))) {
    const rel = dir ? `${dir}/${entry.name}` : entry.name;
    if (entry.isDirectory) {
      if (!DATA_DIRS.some((d) => `${rel}/`.startsWith(d))) await walk(rel, out);
    } else out.push(rel);
  }
  return out;
}

const isTest = (f: string) => f.endsWith("_test.ts") || f.startsWith("tests/") || f.startsWith("bench/");
const isSource = (f: string) => f.endsWith(".ts") && !isTest(f);
/** The unit of layering: a top-level folder (`store/`) or a top-level file (`cli.ts`). */
const unitOf = (f: string) => f.includes("/") ? `${f.split("/")[0]}/` : f;

/** Layers from docs/architecture.md, top first: each table row `| n | \`a/\`, \`b.ts\` | ... |`. */
async function layers(): Promise<Map<string, number>> {
  const doc = await Deno.readTextFile(join(ROOT, "docs", "architecture.md"));
  const out = new Map<string, number>();
  for (const line of doc.split("\n")) {
    const row = line.match(/^\|\s*(\d+)\s*\|([^|]+)\|/);
    if (!row) continue;
    for (const name of row[2].matchAll(/`([^`]+)`/g)) out.set(name[1], Number(row[1]));
  }
  return out;
}

/** Relative specifiers of static imports, re-exports and dynamic imports. */
function importsOf(text: string): string[] {
  const specs = [
    ...text.matchAll(/^\s*(?:import|export)\b[^;]*?\bfrom\s+["'](\.{1,2}\/[^"']+)["']/gms),
    ...text.matchAll(/^\s*import\s+["'](\.{1,2}\/[^"']+)["']/gm),
    ...text.matchAll(/\bimport\(\s*["'](\.{1,2}\/[^"']+)["']\s*\)/g),
  ];
  return specs.map((m) => m[1]);
}

interface Graph {
  files: string[];
  edges: Map<string, string[]>;
}

async function sourceGraph(): Promise<Graph> {
  const files = (await walk("")).filter(isSource);
  const edges = new Map<string, string[]>();
  for (const file of files) {
    const text = await Deno.readTextFile(join(ROOT, file));
    edges.set(file, importsOf(text).map((s) => normalize(join(dirname(file), s))));
  }
  return { files, edges };
}

/** Strongly connected components with more than one member (Tarjan). */
function loops(nodes: string[], next: (n: string) => string[]): string[][] {
  let index = 0;
  const idx = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const on = new Set<string>();
  const found: string[][] = [];
  const visit = (v: string) => {
    idx.set(v, index);
    low.set(v, index++);
    stack.push(v);
    on.add(v);
    for (const w of next(v)) {
      if (!idx.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (on.has(w)) low.set(v, Math.min(low.get(v)!, idx.get(w)!));
    }
    if (low.get(v) === idx.get(v)) {
      const scc: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        on.delete(w);
        scc.push(w);
      } while (w !== v);
      if (scc.length > 1) found.push(scc.sort());
    }
  };
  for (const n of nodes) if (!idx.has(n)) visit(n);
  return found;
}

Deno.test("every folder and file named in docs/architecture.md exists, and every source folder is named", async () => {
  const named = await layers();
  assert.ok(named.size > 10, "the layer table was not found in docs/architecture.md");
  for (const name of named.keys()) {
    const info = await Deno.stat(join(ROOT, name)).catch(() => null);
    assert.ok(info, `docs/architecture.md names ${name}, which does not exist`);
  }
  const doc = await Deno.readTextFile(join(ROOT, "docs", "architecture.md"));
  for (const path of doc.matchAll(/`([a-z_/]+\/[a-z_<>]+\.ts)`/g)) {
    if (path[1].includes("<")) continue;
    assert.ok(
      await Deno.stat(join(ROOT, path[1])).catch(() => null),
      `docs/architecture.md names ${path[1]}`,
    );
  }
  const units = new Set((await walk("")).filter(isSource).map(unitOf));
  for (const unit of units) assert.ok(named.has(unit), `${unit} is on no layer of docs/architecture.md`);
});

Deno.test("imports run down the layers: none upward, none from source into tests, no loop between folders", async () => {
  const named = await layers();
  const { edges } = await sourceGraph();
  const upward: string[] = [];
  const folderEdges = new Map<string, Set<string>>();
  for (const [file, targets] of edges) {
    const from = unitOf(file);
    for (const target of targets.filter((t) => t.endsWith(".ts"))) {
      assert.ok(!isTest(target), `${file} imports the test file ${target}`);
      assert.notEqual(target, "cli.ts", `${file} imports cli.ts`);
      const to = unitOf(target);
      if (to === from) continue;
      assert.ok(named.has(to), `${file} imports ${target}, which is on no layer`);
      if (named.get(to)! < named.get(from)!) upward.push(`${file} -> ${target}`);
      if (!folderEdges.has(from)) folderEdges.set(from, new Set());
      folderEdges.get(from)!.add(to);
    }
  }
  assert.deepEqual(upward, [], "imports from a lower layer up to a higher one");
  const cycles = loops([...folderEdges.keys()], (n) => [...(folderEdges.get(n) ?? [])]);
  assert.deepEqual(cycles, [], "folders that import each other");
});

Deno.test("source files do path arithmetic with base/path.ts, never node:path (it costs every verb its start-up)", async () => {
  const offenders: string[] = [];
  for (const file of (await walk("")).filter(isSource)) {
    if (/from "node:path(\/posix)?"/.test(await Deno.readTextFile(join(ROOT, file)))) offenders.push(file);
  }
  assert.deepEqual(offenders, []);
});

Deno.test("source files import lazily only through base/lazy.ts, naming the same module twice", async () => {
  const problems: string[] = [];
  for (const file of (await walk("")).filter(isSource)) {
    if (file === "base/lazy.ts") continue;
    const text = await Deno.readTextFile(join(ROOT, file));
    // A literal import() makes `deno run` load that module's whole graph at start-up, taken or not.
    for (const m of text.matchAll(/(?<!typeof )\bimport\("([^"]+)"\)/g)) {
      problems.push(`${file}: import("${m[1]}")`);
    }
    for (const m of text.matchAll(/lazy<typeof import\("([^"]+)"\)>\(\s*"([^"]+)"/g)) {
      if (m[1] !== m[2]) problems.push(`${file}: lazy typed as ${m[1]} loads ${m[2]}`);
    }
  }
  assert.deepEqual(problems, []);
});

Deno.test("no two source files import each other, directly or around a loop", async () => {
  const { files, edges } = await sourceGraph();
  assert.deepEqual(loops(files, (f) => edges.get(f) ?? []), []);
});

Deno.test("no folder holds more than 20 source files (24 with its tests), no file more than 300 lines", async () => {
  const all = (await walk("")).filter((f) => !f.endsWith(".md") || f.includes("/"));
  const byDir = new Map<string, string[]>();
  for (const f of all) byDir.set(dirname(f), [...(byDir.get(dirname(f)) ?? []), f]);
  for (const [dir, files] of byDir) {
    if (dir === ".") continue;
    const sources = files.filter((f) => f.endsWith(".ts") && !f.endsWith("_test.ts"));
    assert.ok(sources.length <= MAX_SOURCE_FILES, `${dir}/ holds ${sources.length} source files`);
    assert.ok(files.length <= MAX_FILES, `${dir}/ holds ${files.length} files`);
  }
  // Generated files (schemas/gen/, `deno task schemas`) are as long as the schemas they are made from.
  for (const f of all.filter((f) => f.endsWith(".ts") && !f.startsWith("schemas/gen/"))) {
    const lines = (await Deno.readTextFile(join(ROOT, f))).split("\n").length - 1;
    assert.ok(lines <= MAX_LINES, `${relative(ROOT, join(ROOT, f))} has ${lines} lines`);
  }
});

Deno.test("the import reader sees static, type-only, re-exported and dynamic imports", () => {
  const text = [
    'import { a } from "./a.ts";',
    'import type {\n  B,\n} from "../b/b.ts";',
    'export * from "./c.ts";',
    'const d = await import("./d.ts");',
    'import "./e.ts";',
    'import { e } from "npm:zod";',
  ].join("\n");
  assert.deepEqual(importsOf(text).sort(), ["../b/b.ts", "./a.ts", "./c.ts", "./d.ts", "./e.ts"]);
});
