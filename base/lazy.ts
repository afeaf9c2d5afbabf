/**
 * Imports a module when it is first needed, out of sight of Deno's loader. A literal `import("./x.ts")` makes
 * `deno run` walk x's whole graph at start-up even when that branch never runs (about 7 ms for the dashboard
 * alone, 20 ms for the whole command table; docs/performance.md). Callers name the module's type with
 * `typeof import("./x.ts")`, which costs nothing at run time; tests/architecture_test.ts holds the two paths
 * equal and forbids literal dynamic imports in source files. When the CLI runs from spot's JavaScript copy
 * (boot/copy.ts), the module loads from the copy once its stamps are checked.
 */
import { timed } from "./timings.ts";

/** Set by boot/copy.ts: a checkout module's URL to the URL it loads from; null when it changed on disk. */
const COPY_HOOK = Symbol.for("spot.js-copy");
type Hook = (url: string) => Promise<string | null>;

export function lazy<T>(specifier: string, base: string): Promise<T> {
  const url = new URL(specifier, base).href;
  const hook = (globalThis as Record<symbol, Hook | undefined>)[COPY_HOOK];
  return timed(`import ${url.slice(url.lastIndexOf("/", url.lastIndexOf("/") - 1) + 1)}`, async () => {
    const from = hook ? await hook(url) : url;
    // The copy this process started from no longer matches the sources: loading the changed module would
    // run two versions of spot at once. The copy is dropped; the next command builds it again.
    if (from === null) {
      throw new Error(
        `spot's sources changed after this process started (${url}); run the command again (restart a server)`,
      );
    }
    return await import(from);
  });
}
