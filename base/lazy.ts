/**
 * Imports a module when it is first needed, out of sight of Deno's loader. A literal `import("./x.ts")` makes
 * `deno run` walk x's whole graph at start-up even when that branch never runs (about 7 ms for the dashboard
 * alone, 20 ms for the whole command table; docs/performance.md). Callers name the module's type with
 * `typeof import("./x.ts")`, which costs nothing at run time; tests/architecture_test.ts holds the two paths
 * equal and forbids literal dynamic imports in source files.
 */
import { timed } from "./timings.ts";

export function lazy<T>(specifier: string, base: string): Promise<T> {
  const url = new URL(specifier, base).href;
  return timed(`import ${url.slice(url.lastIndexOf("/", url.lastIndexOf("/") - 1) + 1)}`, () => import(url));
}
