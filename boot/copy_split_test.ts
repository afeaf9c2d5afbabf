import assert from "node:assert/strict";
import { join } from "node:path";
import { inCheckout } from "../tests/fixtures/copy_checkout.ts";
import { buildCopy } from "./copy_build.ts";
import type { CopyGraphFile } from "./copy_late.ts";
import { reachable } from "./copy_graph.ts";
import { entryText, packageExternals } from "./copy_split.ts";
import { COPY_DIR } from "./copy_stamps.ts";

Deno.test("an entry of the copy loads the CLI's main first, then is the module it stands for", () => {
  assert.equal(
    entryText("verbs/run.ts", false),
    'import "../../.mods/cli/main.js";\nexport * from "../../.mods/verbs/run.js";\n',
  );
  assert.equal(
    entryText("cli.ts", true),
    'import "../.mods/cli/main.js";\nexport * from "../.mods/cli.js";\nexport { default } from "../.mods/cli.js";\n',
  );
  assert.deepEqual(packageExternals({ zod: "npm:zod@4", "hono/": "npm:/hono@4/" }), ["zod", "hono/*"]);
});

/** A build's JavaScript files, relative to it. */
async function jsFiles(dir: string, sub = ""): Promise<string[]> {
  const out: string[] = [];
  for await (const entry of Deno.readDir(join(dir, sub))) {
    const rel = sub ? `${sub}/${entry.name}` : entry.name;
    if (entry.isDirectory) out.push(...await jsFiles(dir, rel));
    else if (entry.name.endsWith(".js")) out.push(rel);
  }
  return out;
}

/** The files a build's file loads as it loads: itself and the chunks it imports, and theirs. */
async function loadedWith(dir: string, rel: string): Promise<Set<string>> {
  const seen = new Set<string>();
  const stack = [rel];
  while (stack.length > 0) {
    const file = stack.pop()!;
    if (seen.has(file)) continue;
    seen.add(file);
    const text = await Deno.readTextFile(join(dir, file));
    for (const m of text.matchAll(/^(?:import|export)\b[^;]*?["'](\.\.?\/[^"']+)["']/gm)) {
      stack.push(new URL(m[1], `file:///b/${file}`).pathname.slice(3));
    }
  }
  return seen;
}

Deno.test("the copy holds each module once, and the CLI's main with all it imports in one chunk", async () => {
  await inCheckout(async (root) => {
    const pointer = await buildCopy(root);
    assert.ok(pointer, "a build was made");
    const dir = join(root, COPY_DIR, pointer.build);
    // Which files hold each module: the bundler heads each module's code with its path (twice in one file
    // when it moves the module's imports of packages to the file's top).
    const holders = new Map<string, Set<string>>();
    for (const file of await jsFiles(dir)) {
      const text = await Deno.readTextFile(join(dir, file));
      for (const m of text.matchAll(/^\/\/ \S*\/\.mods\/(\S+)\.js$/gm)) {
        holders.set(`${m[1]}.ts`, (holders.get(`${m[1]}.ts`) ?? new Set()).add(file));
      }
    }
    assert.ok(holders.size > 300, `the build holds ${holders.size} modules`);
    const twice = [...holders].filter(([, files]) => files.size > 1);
    assert.deepEqual(twice, [], "a module in two chunks would have two states in one process");

    const graph: CopyGraphFile = JSON.parse(await Deno.readTextFile(join(dir, "graph.json")));
    // What the CLI's main imports as it loads (graph.json holds no lazy edges: none is followed).
    const imported = { modules: graph.paths, code: graph.code, lazy: graph.paths.map(() => []) };
    const reach = reachable(imported, ["cli/main.ts"]);
    assert.ok(reach.length > 20, `the CLI's main imports ${reach.length} modules`);
    const chunks = new Set(reach.flatMap((i) => [...holders.get(graph.paths[i]) ?? ["(none)"]]));
    assert.equal(chunks.size, 1, `the main's modules sit in ${[...chunks].join(", ")}`);

    // A command's verb loads its modules in far fewer files than it has modules.
    const run = await loadedWith(dir, "verbs/run.js");
    assert.ok(run.size < 80, `verbs/run.js loads ${run.size} files`);
  });
});
