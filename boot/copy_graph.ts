/**
 * The graph of spot's JavaScript copy of itself (boot/copy.ts), as pure functions of text: the modules an
 * emitted module loads through `lazy()` (boot/copy_module.ts reads its imports), and for each first word of
 * a command the modules that command may load, whose stamps are checked before the copy runs it.
 * boot/copy_build.ts reads the files and writes what these return.
 */

/** A lazy import as the bundler prints it: `lazy("./x.ts", import.meta.url)` (tests/architecture_test.ts). */
const LAZY_CALL = /\blazy\(\s*"(\.\.?\/[^"]+)"\s*,\s*import\.meta\.url\s*,?\s*\)/g;

/** `specifier` as seen from the module at `rel` (both relative to the checkout): `a/b.ts` + `../c.ts`. */
export function resolveRel(rel: string, specifier: string): string {
  return new URL(specifier, `file:///r/${rel}`).pathname.slice("/r/".length);
}

/**
 * The modules an emitted module may load later through `lazy()`. Read from the text: a call written inside
 * a string would only add a module to check.
 */
export function lazyImports(emitted: string, rel: string): string[] {
  return [...emitted.matchAll(LAZY_CALL)].map((m) => resolveRel(rel, m[1]));
}

/**
 * Calls of `lazy()` that `lazyImports` does not read: a specifier other than a literal, which the copy could
 * not know to write out. The definition (`function lazy(`) and methods of that name (`z.lazy(`) are not calls.
 */
export function unreadLazyCalls(emitted: string): number {
  const calls = emitted.match(/(?<![.\w$])(?<!function )lazy\(/g)?.length ?? 0;
  return calls - [...emitted.matchAll(LAZY_CALL)].length;
}

/** A table module's source: `table/loop.ts` and its text. */
export interface TableSource {
  rel: string;
  text: string;
}

/** Where a verb's declaration starts: `verb({`, `bareVerb({`, `hostVerb({` (table/verb.ts). */
const DECLARATION = /\b(?:verb|bareVerb|hostVerb)\(\{/;
const LOADER = /(?:\b(\w+):|\bconst\s+(\w+)\s*=)\s*\(\)\s*=>\s*lazy<typeof import\("([^"]+)"\)>/g;
const INLINE_LAZY = /lazy<typeof import\("([^"]+)"\)>/g;

/**
 * The modules each first word's verbs load through `lazy()` from their table module: the loaders a verb's
 * declaration calls (`verbs.verify()`, `serve()`) and the lazy imports written in it. Read from the source
 * (where the type names the module): text that only looks like a call adds a module to check, never removes
 * one; a module a command loads that this misses is checked as it loads (boot/copy_late.ts).
 */
export function verbLoads(table: TableSource): Map<string, string[]> {
  // A loader in an object (`verbs: { verify: () => lazy(...) }`) is called as `verbs.verify()`; a constant
  // one (`const serve = () => lazy(...)`) as `serve()`, never after a dot.
  const loaders = new Map<RegExp, string>();
  for (const m of table.text.matchAll(LOADER)) {
    const call = m[1] ? new RegExp(`\\.${m[1]}\\(`) : new RegExp(`(?<![.\\w$])${m[2]}\\(`);
    loaders.set(call, resolveRel(table.rel, m[3]));
  }
  const out = new Map<string, string[]>();
  for (const { words, block } of declarations(table)) {
    const found: string[] = [];
    for (const [call, target] of loaders) if (call.test(block)) found.push(target);
    for (const m of block.matchAll(INLINE_LAZY)) found.push(resolveRel(table.rel, m[1]));
    for (const word of words) out.set(word, [...new Set([...(out.get(word) ?? []), ...found])]);
  }
  return out;
}

/** Each verb's declaration in a table module: its text, and the first words its name and alias give it. */
function declarations(table: TableSource): { words: string[]; block: string }[] {
  const out: { words: string[]; block: string }[] = [];
  for (const block of table.text.split(DECLARATION).slice(1)) {
    const name = block.match(/\bname:\s*"([^"]+)"/)?.[1];
    if (!name) continue;
    const alias = block.match(/\balias:\s*"([^"]+)"/)?.[1];
    out.push({ words: [name, ...(alias ? [alias] : [])].map((n) => n.split(" ")[0]), block });
  }
  return out;
}

/**
 * The first words whose every verb declares `loadConfig: false` (table/verb.ts): their commands never load
 * the config, so the config's loader is not in their sets (`CONFIG_LOADER`). Read from the text: a word
 * this misses keeps the loader in its set, which only costs its stamps.
 */
export function configFreeWords(table: TableSource): Set<string> {
  const says = new Map<string, boolean>();
  for (const { words, block } of declarations(table)) {
    const free = /\bloadConfig:\s*false\b/.test(block);
    for (const word of words) says.set(word, (says.get(word) ?? true) && free);
  }
  return new Set([...says].filter(([, free]) => free).map(([word]) => word));
}

/** The copy's module graph, by index into `modules`. */
export interface CopyGraph {
  modules: string[];
  /** What each module imports as it loads. */
  code: number[][];
  /** What each module may load through `lazy()`. */
  lazy: number[][];
}

/**
 * Modules whose lazy imports pick a branch by what the command is: the table modules (each verb's module,
 * counted for its own word by `verbLoads`), the CLI's main (commander, for a call the fast parser does not
 * take) and its verb runner (the servers' host, a terminal's views). Their branches are roots of a word's set
 * where the word takes them (`commandSets`), never followed from these modules.
 */
const BRANCHING = /^(table\/[^/]+|cli\/main|cli\/run_verb)\.ts$/;

/**
 * The config's loader: `config/context.ts` loads `config/load.ts` (and with it the CLI records and the
 * config's schemas, ~40 modules) only for a verb that does not declare `loadConfig: false`. Should such a
 * verb load it anyway, it is checked as it loads (boot/copy_late.ts).
 */
export const CONFIG_LOADER: [string, string] = ["config/context.ts", "config/load.ts"];

/**
 * Every module reachable from `roots`: through imports, and through lazy imports but those of `BRANCHING`
 * and the lazy import `skip` names (`[from, to]`).
 */
export function reachable(graph: CopyGraph, roots: string[], skip?: [string, string]): number[] {
  const index = new Map(graph.modules.map((m, i) => [m, i]));
  const seen = new Set<number>();
  const stack = roots.map((r) => index.get(r)).filter((i): i is number => i !== undefined);
  const [skipFrom, skipTo] = skip ? skip.map((m) => index.get(m)) : [];
  while (stack.length > 0) {
    const i = stack.pop()!;
    if (seen.has(i)) continue;
    seen.add(i);
    stack.push(...graph.code[i]);
    if (BRANCHING.test(graph.modules[i])) continue;
    stack.push(...(i === skipFrom ? graph.lazy[i].filter((j) => j !== skipTo) : graph.lazy[i]));
  }
  return [...seen].sort((a, b) => a - b);
}

/** What every command may load from the CLI itself. */
const CLI_ROOTS = [
  "cli/main.ts",
  "cli/run_verb.ts",
  "cli/program.ts",
  "cli/table.ts",
  "cli/version.ts",
  "cli/views.ts",
];

/**
 * For each first word of the CLI (`moduleOf`: word to its table module, table/modules_gen.ts), the modules
 * its command may load: the CLI's own, its table module's, and those of the verbs the word names.
 */
export function commandSets(
  graph: CopyGraph,
  moduleOf: Record<string, string>,
  tables: TableSource[],
): Record<string, number[]> {
  const loads = new Map(tables.map((t) => [t.rel, verbLoads(t)]));
  const configFree = new Set(tables.flatMap((t) => [...configFreeWords(t)].map((w) => `${t.rel} ${w}`)));
  const sets: Record<string, number[]> = {};
  for (const [word, module] of Object.entries(moduleOf)) {
    const table = `table/${module}.ts`;
    const verbs = loads.get(table)?.get(word) ?? [];
    // Commander's path (cli/program.ts, cli/table.ts) is small beside what it would cost a command to fail
    // late on it; a terminal's views likewise. The servers' host only for the words that run one.
    const host = module === "host" ? ["cli/host.ts"] : [];
    const skip = configFree.has(`${table} ${word}`) ? CONFIG_LOADER : undefined;
    sets[word] = reachable(graph, [...CLI_ROOTS, table, ...host, ...verbs], skip);
  }
  // `spot --version` prints a line from the CLI alone.
  for (const word of ["--version", "-V"]) sets[word] = reachable(graph, ["cli/main.ts", "cli/version.ts"]);
  return sets;
}
