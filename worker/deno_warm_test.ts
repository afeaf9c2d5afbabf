import assert from "node:assert/strict";
import { join } from "node:path";
import { warmDenoPrograms, warmInputs } from "./deno_warm.ts";

/** A program of two modules in a temp dir, a fresh Deno cache, and spot's cache root beside them. */
async function world() {
  const dir = await Deno.makeTempDir({ prefix: "spot-warm-" });
  const entry = join(dir, "main.ts");
  const module = join(dir, "part.ts");
  await Deno.writeTextFile(module, "export const part: number = 1;\n");
  await Deno.writeTextFile(entry, 'import { part } from "./part.ts";\nconsole.log(part satisfies number);\n');
  const denoDir = join(dir, "deno");
  const options = {
    cacheRoot: join(dir, "cache"),
    env: (name: string) =>
      ({ DENO_DIR: denoDir, PATH: Deno.env.get("PATH") } as Record<string, string>)[name],
  };
  const compiled = async () => {
    const found: string[] = [];
    const walk = async (d: string) => {
      for await (const e of Deno.readDir(d)) {
        if (e.isDirectory) await walk(join(d, e.name));
        else found.push(e.name);
      }
    };
    await walk(join(denoDir, "gen")).catch(() => {});
    return found.sort();
  };
  return { dir, entry, module, denoDir, options, compiled, program: { entry, modules: [module] } };
}

Deno.test("warmDenoPrograms() compiles a program into the Deno cache once, and again when a module changes", async () => {
  const w = await world();
  try {
    assert.deepEqual(await w.compiled(), [], "a fresh cache holds nothing");
    assert.equal(await warmDenoPrograms([w.program], w.options), true);
    // Deno 2 keeps each compiled module as gen/file/<path>.js.
    assert.deepEqual(await w.compiled(), ["main.ts.js", "part.ts.js"]);
    // The stamp says it was done: the cache emptied behind spot's back is not filled again.
    await Deno.remove(join(w.denoDir, "gen"), { recursive: true });
    assert.equal(await warmDenoPrograms([w.program], w.options), true);
    assert.deepEqual(await w.compiled(), []);
    // A changed module is a new program: compiled again.
    await Deno.writeTextFile(w.module, "export const part: number = 22;\n");
    assert.equal(await warmDenoPrograms([w.program], w.options), true);
    assert.deepEqual(await w.compiled(), ["main.ts.js", "part.ts.js"]);
    assert.equal([...Deno.readDirSync(join(w.options.cacheRoot, "deno-warm"))].length, 2);
  } finally {
    await Deno.remove(w.dir, { recursive: true });
  }
});

Deno.test("warmDenoPrograms() leaves no stamp for a program that does not compile, or whose file is missing", async () => {
  const w = await world();
  try {
    await Deno.writeTextFile(w.module, "export const part = ;\n");
    assert.equal(await warmDenoPrograms([w.program], w.options), false);
    assert.equal(await warmDenoPrograms([{ entry: join(w.dir, "gone.ts"), modules: [] }], w.options), false);
    assert.equal(
      await Deno.stat(join(w.options.cacheRoot, "deno-warm")).then(() => true, () => false),
      false,
    );
  } finally {
    await Deno.remove(w.dir, { recursive: true });
  }
});

Deno.test("warmInputs() name Deno and every module's size and time", async () => {
  const w = await world();
  try {
    const inputs = await warmInputs(w.program);
    assert.ok(inputs?.includes(Deno.version.deno) && inputs.includes(w.module));
    assert.equal(await warmInputs(w.program), inputs);
    await Deno.utime(w.module, new Date(2020, 0, 1), new Date(2020, 0, 1));
    assert.notEqual(await warmInputs(w.program), inputs);
    assert.equal(await warmInputs({ entry: w.entry, modules: [join(w.dir, "gone.ts")] }), null);
  } finally {
    await Deno.remove(w.dir, { recursive: true });
  }
});
