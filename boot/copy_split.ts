/**
 * Packs spot's JavaScript copy of itself (boot/copy.ts) into few files. Deno pays about 70 us for each module
 * it loads, whatever its size: the 136 modules of `spot run` cost ~13 ms as separate files and ~3 ms as one.
 * One file per command would hold a module twice where two commands share it, and a `spot mcp` that runs both
 * would then hold two of its state; so the bundler splits instead: every module the CLI may load on its own
 * (its main and each `lazy()` target) is an entry, and a module lives in exactly one chunk, with the others
 * that the same entries reach.
 *
 * Left to itself that makes a chunk for every set of entries a module is reached from: the CLI's main's own
 * 30 modules came out in 21 files. But every command loads the main before anything lazy, so each entry here
 * also imports it: what the main reaches is then reached by every entry, one chunk, evaluated no earlier than
 * before. `spot run` loads 56 files instead of 136, `spot inspect` 8 instead of 34.
 */
import { join } from "../base/path.ts";

/** The modules emitted one by one (`<rel>.js` under `mods`) and what the split needs to know of them. */
export interface SplitInput {
  /** The checkout's modules, relative to it. */
  modules: string[];
  /** Indices into `modules` of the entries: what is loaded by URL (the CLI's main, each `lazy()` target). */
  entries: number[];
  /** Indices of the modules with a default export. */
  defaults: Set<number>;
  /** What stays outside the chunks: npm packages (import map keys) and the checkout's JSON and text files. */
  external: string[];
}

/** A bundler run: the entry files, the options, into `out` (boot/copy_build.ts). */
export type Bundle = (entries: string[], options: string[]) => Promise<void>;

const MAIN = "cli/main.ts";

/** The import map's keys as bundler externals: `hono/` names every `hono/...`. */
export function packageExternals(imports: Record<string, string>): string[] {
  return Object.keys(imports).map((key) => key.endsWith("/") ? `${key}*` : key);
}

/** The text of the entry file standing for module `rel`: the CLI's main, then the module itself. */
export function entryText(rel: string, exportsDefault: boolean): string {
  const up = "../".repeat(rel.split("/").length);
  const own = `${up}.mods/${rel.slice(0, -3)}.js`;
  return [
    `import "${up}.mods/${MAIN.slice(0, -3)}.js";`,
    `export * from "${own}";`,
    ...(exportsDefault ? [`export { default } from "${own}";`] : []),
    "",
  ].join("\n");
}

/**
 * Packs the modules emitted under `<out>/.mods` into `out`: each entry at `<rel>.js`, the chunks beside them.
 * The working folders (`.mods`, `.entries`) are removed.
 */
export async function splitCopy(out: string, input: SplitInput, bundle: Bundle): Promise<void> {
  const { modules, entries, defaults, external } = input;
  if (!entries.includes(modules.indexOf(MAIN))) throw new Error(`the copy's entries do not hold ${MAIN}`);
  const files: string[] = [];
  for (const i of entries) {
    const rel = modules[i];
    const file = join(out, ".entries", `${rel.slice(0, -3)}.js`);
    await Deno.mkdir(join(file, ".."), { recursive: true });
    await Deno.writeTextFile(file, entryText(rel, defaults.has(i)));
    files.push(file);
  }
  await bundle(files, [
    // Names are not kept (`--keep-names` costs a call per function as a chunk loads, ~0.5 ms a command):
    // nothing of spot reads a function's or a class's name (errors name themselves), only a stack trace
    // shows one, and `SPOT_FROM_SOURCE=1` gives the sources' names there.
    "--code-splitting",
    ...external.flatMap((e) => ["--external", e]),
  ]);
  await Deno.remove(join(out, ".mods"), { recursive: true });
  await Deno.remove(join(out, ".entries"), { recursive: true });
}
