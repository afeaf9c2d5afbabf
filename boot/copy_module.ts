/**
 * One module of spot's JavaScript copy of itself (boot/copy.ts), from what the bundler emitted: its relative
 * imports of TypeScript name the copy's JavaScript, its other relative imports (JSON) the checkout's file,
 * and `import.meta.url` the checkout's module, so every path a module finds from its own place (the steps,
 * the replay worker, the schemas, `lazy()`'s bases) is the checkout's, as from the sources. The imports are
 * found by es-module-lexer, which knows a statement from the same text in a string or a template (a module
 * that writes TypeScript, `adapters/clis_index.ts`, holds such text). es-module-lexer: the standard lexer of
 * ES module syntax (esbuild and Vite use it), so no regular expression decides what code runs.
 */
import { init, parse } from "es-module-lexer";
import { resolveRel } from "./copy_graph.ts";

/** Readies the lexer's WebAssembly: before the first `copyModule`. */
export function lexerReady(): Promise<void> {
  return init();
}

/** A module made to run from the copy. */
export interface CopiedModule {
  text: string;
  /** The checkout's modules it imports as it loads (paths relative to the checkout). */
  imports: string[];
  /** The checkout's other files it imports (JSON, text), as the URLs it now names: never bundled. */
  assets: string[];
  /** Whether it has a default export (boot/copy_split.ts re-exports it by name). */
  exportsDefault: boolean;
  /** What stops it from being copied: an `import.meta` other than `.url` and `.main`, a literal `import()`. */
  problems: string[];
}

const IDENTIFIER = /[\w$]/;

/** `emitted` (the module at `rel` in the checkout) made to run from the copy; `sourceRoot` ends in `/`. */
export function copyModule(emitted: string, rel: string, sourceRoot: string): CopiedModule {
  const own = new URL(rel, sourceRoot);
  const [found, exported] = parse(emitted);
  const edits: { start: number; end: number; text: string }[] = [];
  const imports: string[] = [];
  const assets: string[] = [];
  const problems: string[] = [];
  for (const item of found) {
    const { type, specifier, start, end } = item;
    if (type === "import-meta") {
      const rest = emitted.slice(end, end + 6);
      const member = rest.startsWith(".url") && !IDENTIFIER.test(rest[4] ?? "")
        ? ".url"
        : rest.startsWith(".main") && !IDENTIFIER.test(rest[5] ?? "")
        ? ".main"
        : null;
      if (member === null) {
        problems.push(`import.meta${rest}`);
        continue;
      }
      // No module of the copy is ever the program Deno was started with (cli.ts is, and stays TypeScript).
      const text = member === ".url" ? JSON.stringify(own.href) : "false";
      edits.push({ start, end: end + member.length, text });
      continue;
    }
    if (type === "dynamic") {
      if (typeof specifier === "string") problems.push(`a literal dynamic import of ${specifier}`);
      continue;
    }
    if (typeof specifier !== "string" || !/^\.\.?\//.test(specifier)) continue;
    if (specifier.endsWith(".ts")) {
      imports.push(resolveRel(rel, specifier));
      edits.push({ start, end, text: `${specifier.slice(0, -3)}.js` });
    } else {
      const url = new URL(specifier, own).href;
      assets.push(url);
      edits.push({ start, end, text: url });
    }
  }
  let text = emitted;
  for (const e of edits.sort((a, b) => b.start - a.start)) {
    text = text.slice(0, e.start) + e.text + text.slice(e.end);
  }
  return {
    text,
    imports,
    assets,
    exportsDefault: exported.some((e) => e.type !== "reexport-all" && e.name === "default"),
    problems,
  };
}
