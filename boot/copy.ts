/**
 * spot runs from a JavaScript copy of itself when the copy matches the checkout (docs/performance.md, "A
 * seventh pass"). Deno loads a TypeScript module by reading its source and then its emitted code (about
 * three times the source, a source map inline) and checking one against the other: a verb's 100-150
 * modules load in ~10 ms more than the same modules as JavaScript, on every start.
 *
 * The copy lives in `.js-copy/` in the checkout (boot/copy_build.ts makes it, its modules packed into few
 * files by boot/copy_split.ts, each module loaded by URL at `<build>/<module>.js`): `current.json` names the
 * build; the build holds, for each first word of the CLI, the modules that command may load with the stamp
 * (size, mtime, ctime, inode; the content's hash too for a file changed in its stamp's second) of each
 * source file they were made from. A command runs from the copy only when every one of those holds;
 * otherwise the build is made again first (about a second), or the command runs from the sources when it
 * cannot be (another build under way, one failed in the last ten minutes, a checkout spot cannot write,
 * `SPOT_FROM_SOURCE=1`). A module the command loads later that is not in its set is checked as it loads
 * (boot/copy_late.ts); one changed since the build fails the command (base/lazy.ts) rather than mix two
 * versions of spot.
 *
 * boot/ is not in the copy, and imports nothing the copy holds: that would load twice, here and from it.
 */
import {
  ALL,
  COPY_DIR,
  COPY_HOOK,
  COPY_STATUS,
  type CopyPointer,
  type CopyStatus,
  dropPointer,
  heldSet,
  readJson,
} from "./copy_stamps.ts";

type Main = typeof import("../cli/main.ts");
type Hook = (url: string) => Promise<string | null>;

const ROOT_URL = new URL("../", import.meta.url).href;
const ROOT = decodeURIComponent(new URL(ROOT_URL).pathname).replace(/\/$/, "");

/** The name of the set a call's first word checks (`words/<name>.json`). */
function setName(args: readonly string[]): string {
  const word = args.filter((a) => a !== "--timings")[0];
  return word !== undefined && /^-{0,2}[A-Za-z][a-z-]*$/.test(word) ? word : ALL;
}

/** Why the sources run whatever the copy holds: `SPOT_FROM_SOURCE` set to 1 or true, a library's host. */
function sourcesAsked(): string | null {
  let asked: string | undefined;
  try {
    asked = Deno.env.get("SPOT_FROM_SOURCE");
  } catch {
    return "no permission to read the environment"; // a library's host, not the CLI
  }
  return /^(1|true)$/i.test(asked ?? "") ? `SPOT_FROM_SOURCE=${asked}` : null;
}

/** Makes `lazy()` load the checkout's modules from the build: those of the set at once, others once checked. */
function install(pointer: CopyPointer, held: string[]): string {
  const copy = `${ROOT_URL}${COPY_DIR}/${pointer.build}/`;
  const checked = new Set(held);
  let late: Hook | undefined;
  const hook: Hook = async (url) => {
    if (!url.startsWith(ROOT_URL) || !url.endsWith(".ts")) return url;
    const rel = url.slice(ROOT_URL.length);
    if (checked.has(rel)) return `${copy}${rel.slice(0, -3)}.js`;
    late ??=
      (await import(new URL("./copy_late.ts", import.meta.url).href) as typeof import("./copy_late.ts"))
        .lateHook(ROOT, ROOT_URL, copy, checked);
    return await late(url);
  };
  (globalThis as Record<symbol, unknown>)[COPY_HOOK] = hook;
  return `${copy}cli/main.js`;
}

/** The set `name` of the pointer's build when it holds, with the time its check took. */
async function held(pointer: CopyPointer | null, name: string, status: CopyStatus): Promise<string[] | null> {
  const started = performance.now();
  const paths = await heldSet(ROOT, pointer, name);
  if (paths) status.checked = { files: paths.length, ms: performance.now() - started };
  return paths;
}

/** The copy's `cli/main.js` when a build holds for what the command may load, made now if need be. */
async function copyMain(args: readonly string[], status: CopyStatus): Promise<string | null> {
  if (!ROOT_URL.startsWith("file:") || ROOT_URL.includes("/deno-compile-")) {
    status.why = "a compiled binary";
    return null;
  }
  const asked = sourcesAsked();
  if (asked) {
    status.why = asked;
    return null;
  }
  const name = setName(args);
  let pointer = readJson<CopyPointer>(`${ROOT}/${COPY_DIR}/current.json`);
  let paths = await held(pointer, name, status);
  if (paths) return install(pointer!, paths);
  const { buildCopy } = await import(
    new URL("./copy_build.ts", import.meta.url).href
  ) as typeof import("./copy_build.ts");
  const started = performance.now();
  pointer = await buildCopy(ROOT, (why) => status.why = why).catch((error) => {
    status.why = `the build failed: ${error}`;
    return null;
  });
  status.buildMs = performance.now() - started;
  paths = await held(pointer, name, status);
  if (!paths) status.why ??= "the new build does not hold (a source changed while it was made)";
  return paths ? install(pointer!, paths) : null;
}

/** The CLI's `main`: from the JavaScript copy when one holds, else from the sources. */
export async function loadMain(args: readonly string[]): Promise<Main> {
  const status: CopyStatus = { from: "sources" };
  (globalThis as Record<symbol, unknown>)[COPY_STATUS] = status;
  const copy = await copyMain(args, status).catch((error) => {
    status.why = `the check failed: ${error}`;
    return null;
  });
  if (copy) {
    try {
      const main = await import(copy) as Main;
      status.from = "copy";
      return main;
    } catch {
      // A build folder gone or damaged: nothing of spot has run yet, so the sources run instead.
      delete (globalThis as Record<symbol, unknown>)[COPY_HOOK];
      dropPointer(ROOT);
      status.why = "the copy could not be loaded (it is made again by the next command)";
    }
  }
  return await import(new URL("../cli/main.ts", import.meta.url).href) as Main;
}
