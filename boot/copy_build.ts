/**
 * Builds spot's JavaScript copy of itself (boot/copy.ts): every source module of the checkout (tests,
 * benches and tools aside) through one `deno bundle --inline-imports=false` (each module emitted on its own,
 * its imports kept), each made to run from the copy and its imports read (boot/copy_graph.ts), then packed
 * into few files by a second, splitting one (boot/copy_split.ts), into a new build folder that
 * `current.json` then names. The stamps are taken before the bundler reads the files, so a
 * file written during the build leaves the new build already stale. One build at a time (`build.lock`);
 * a command that finds one under way runs from the sources.
 */
import { join } from "../base/path.ts";
import { spawnProcess } from "../sandbox/spawn.ts";
import { MODULE_OF } from "../table/modules_gen.ts";
import {
  ALL,
  COPY_DIR,
  type CopyPointer,
  type CopySet,
  digest,
  heldSet,
  readJson,
  stampOf,
} from "./copy_stamps.ts";
import type { CopyGraphFile } from "./copy_late.ts";
import { commandSets, type CopyGraph, lazyImports, unreadLazyCalls } from "./copy_graph.ts";
import { copyModule, lexerReady } from "./copy_module.ts";
import { packageExternals, splitCopy, type SplitInput } from "./copy_split.ts";

/** Folders of the checkout that hold no module the CLI loads (boot/ is what picks the copy, as TypeScript). */
const SKIP = new Set(["tests", "bench", "boot", "node_modules", "dist", "coverage", "test-output"]);
/**
 * The newest builds are kept whatever their age, older ones for an hour: a long-running `spot mcp` may still
 * load from one (and is told to restart once its build is gone: boot/copy_late.ts). A build is ~3 MB.
 */
const KEEP_BUILDS = 4;
const KEEP_MS = 3_600_000;
/** After a failed build (no bundler to fetch, a module that does not parse), the sources run this long. */
const RETRY_AFTER_MS = 600_000;
/** A lock older than this belongs to a build that died. */
const LOCK_STALE_MS = 120_000;
/** The bundler fetches its esbuild from npm the first time; past this, the sources run (and retry later). */
const BUNDLE_TIMEOUT_MS = 30_000;

/** The checkout's source modules, as sorted paths relative to `root`. */
export async function sourceModules(root: string, dir = ""): Promise<string[]> {
  const out: string[] = [];
  for await (const entry of Deno.readDir(join(root, dir))) {
    const rel = dir ? `${dir}/${entry.name}` : entry.name;
    if (entry.name.startsWith(".")) continue;
    if (entry.isDirectory && !SKIP.has(rel)) out.push(...await sourceModules(root, rel));
    else if (entry.isFile && rel.endsWith(".ts") && !rel.endsWith("_test.ts") && !rel.endsWith(".d.ts")) {
      out.push(rel);
    }
  }
  return out.sort();
}

function failedRecently(dir: string): boolean {
  try {
    const failed = JSON.parse(Deno.readTextFileSync(join(dir, "failed.json")));
    return failed?.deno === Deno.version.deno && Date.now() - (failed.at ?? 0) < RETRY_AFTER_MS;
  } catch {
    return false;
  }
}

/** Takes the build lock; false when another build holds it. */
function lock(path: string): boolean {
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      Deno.writeTextFileSync(path, `${Deno.pid}\n`, { createNew: true });
      return true;
    } catch (error) {
      if (!(error instanceof Deno.errors.AlreadyExists)) return false;
      try {
        const at = Deno.statSync(path).mtime?.getTime() ?? 0;
        if (Date.now() - at < LOCK_STALE_MS) return false;
        Deno.removeSync(path);
      } catch {
        // Released (or taken over) meanwhile: try once more.
      }
    }
  }
  return false;
}

/**
 * Builds a new copy of the checkout at `root` and makes it current. Null when no build is made now: another
 * is under way, one failed in the last ten minutes, or the checkout's copy folder cannot be written; `refused`
 * is told which.
 */
export async function buildCopy(root: string, refused?: (why: string) => void): Promise<CopyPointer | null> {
  const dir = join(root, COPY_DIR);
  try {
    await Deno.mkdir(dir, { recursive: true });
  } catch {
    refused?.(`${COPY_DIR}/ cannot be made in the checkout`);
    return null;
  }
  if (failedRecently(dir)) {
    refused?.(`a build failed in the last ten minutes (${COPY_DIR}/failed.json says why)`);
    return null;
  }
  if (!lock(join(dir, "build.lock"))) {
    refused?.(`another build is under way, or ${COPY_DIR}/ cannot be written`);
    return null;
  }
  try {
    return await build(root, dir);
  } catch (error) {
    const failed = { deno: Deno.version.deno, at: Date.now(), error: String(error).slice(0, 2000) };
    await Deno.writeTextFile(join(dir, "failed.json"), JSON.stringify(failed)).catch(() => {});
    refused?.(`the build failed (${COPY_DIR}/failed.json says why)`);
    return null;
  } finally {
    await Deno.remove(join(dir, "build.lock")).catch(() => {});
  }
}

async function bundle(root: string, out: string, modules: string[], options: string[]): Promise<void> {
  const r = await spawnProcess([
    Deno.execPath(),
    "bundle",
    "--quiet",
    "--no-lock",
    "--config",
    join(root, "deno.json"),
    "--platform",
    "deno",
    ...options,
    "--outdir",
    out,
    ...modules,
  ], { cwd: root, env: Deno.env.toObject(), timeoutMs: BUNDLE_TIMEOUT_MS, maxOutputChars: 100_000 });
  if (r.exitCode !== 0) {
    throw new Error(`deno bundle exited ${r.exitCode ?? r.signal}: ${r.stderr.slice(-1000)}`);
  }
}

/**
 * Each module emitted into `out`, made to run from the copy, and its imports read into `graph`; what the
 * split then needs of them.
 */
async function emitAll(root: string, out: string, graph: CopyGraph): Promise<SplitInput> {
  const { modules } = graph;
  await bundle(root, out, modules, ["--inline-imports=false", "--packages", "external"]);
  await lexerReady();
  const index = new Map(modules.map((m, i) => [m, i]));
  const indices = (rels: string[]) =>
    rels.map((r) => index.get(r)).filter((i): i is number => i !== undefined);
  const source = new URL(`file://${root}/`).href;
  const assets = new Set<string>();
  const defaults = new Set<number>();
  for (const [i, rel] of modules.entries()) {
    const file = join(out, `${rel.slice(0, -3)}.js`);
    const emitted = await Deno.readTextFile(file);
    const copied = copyModule(emitted, rel, source);
    // A `lazy()` whose module is not written out would name no file of the copy.
    if (rel !== "base/lazy.ts" && unreadLazyCalls(emitted) > 0) {
      copied.problems.push("a lazy() call not read");
    }
    if (copied.problems.length > 0) {
      throw new Error(`${rel} cannot run from the copy: ${copied.problems.join(", ")}`);
    }
    graph.code.push(indices(copied.imports));
    graph.lazy.push(indices(lazyImports(emitted, rel)));
    for (const a of copied.assets) assets.add(a);
    if (copied.exportsDefault) defaults.add(i);
    await Deno.writeTextFile(file, copied.text);
  }
  const imports = readJson<{ imports?: Record<string, string> }>(join(root, "deno.json"))?.imports ?? {};
  return {
    modules,
    entries: [...new Set([index.get("cli/main.ts")!, ...graph.lazy.flat()])],
    defaults,
    external: [...packageExternals(imports), ...assets],
  };
}

/** What was stamped before the build: the modules first (by their index in the graph), then the builder. */
interface Stamped {
  files: string[];
  stamps: number[];
  racy: Map<number, string>;
}

/** The builder's own files (boot/, tests aside). */
async function builderFiles(root: string): Promise<string[]> {
  const out: string[] = [];
  for await (const entry of Deno.readDir(join(root, "boot"))) {
    if (entry.isFile && entry.name.endsWith(".ts") && !entry.name.endsWith("_test.ts")) {
      out.push(`boot/${entry.name}`);
    }
  }
  return out.sort();
}

/** Each first word's set (`words/`) and the whole graph (`graph.json`), with the stamps taken before. */
async function writeSets(root: string, tmp: string, graph: CopyGraph, stamped: Stamped): Promise<void> {
  const { modules } = graph;
  const { files, stamps, racy } = stamped;
  const tables = await Promise.all(
    modules.filter((m) => /^table\/[^/]+\.ts$/.test(m)).map(async (rel) => ({
      rel,
      text: await Deno.readTextFile(join(root, rel)),
    })),
  );
  const setOf = (indices: Iterable<number>): CopySet => {
    const list = [...indices];
    const hashes = list.flatMap((i, at) => racy.has(i) ? [[at, racy.get(i)!] as const] : []);
    return {
      paths: list.map((i) => files[i]),
      stamps: list.flatMap((i) => stamps.slice(4 * i, 4 * i + 4)),
      ...(hashes.length > 0 ? { racy: Object.fromEntries(hashes) } : {}),
    };
  };
  await Deno.mkdir(join(tmp, "words"));
  const sets = { ...commandSets(graph, MODULE_OF, tables), [ALL]: [...modules.keys()] };
  const builder = [...files.keys()].slice(modules.length);
  for (const [word, set] of Object.entries(sets)) {
    await Deno.writeTextFile(join(tmp, "words", `${word}.json`), JSON.stringify(setOf([...set, ...builder])));
  }
  const whole: CopyGraphFile = { ...setOf(modules.keys()), code: graph.code };
  await Deno.writeTextFile(join(tmp, "graph.json"), JSON.stringify(whole));
}

async function build(root: string, dir: string): Promise<CopyPointer> {
  const modules = await sourceModules(root);
  // The builder's own files are in every set too: a build made by another version of them (another
  // transform, other sets) is not current, though no module changed.
  const files = [...modules, ...await builderFiles(root)];
  const started = Date.now();
  const stamps = files.flatMap((rel) => stampOf(Deno.statSync(join(root, rel))));
  // Changed in the second the stamps were taken (or the one before, for a clock a tick behind): judged by
  // content too (CopySet.racy), hashed now, before the bundler reads them.
  const racy = new Map<number, string>();
  const recent = Math.floor(started / 1000) * 1000 - 1000;
  for (const [i, rel] of files.entries()) {
    if (stamps[4 * i + 2] >= recent) racy.set(i, await digest(join(root, rel)));
  }
  const name = `b-${Date.now().toString(36)}-${crypto.randomUUID().slice(0, 8)}`;
  const tmp = join(dir, `${name}.tmp`);
  const graph: CopyGraph = { modules, code: [], lazy: [] };
  try {
    const split = await emitAll(root, join(tmp, ".mods"), graph);
    await splitCopy(tmp, split, (entries, options) => bundle(root, tmp, entries, options));
    await writeSets(root, tmp, graph, { files, stamps, racy });
    await Deno.rename(tmp, join(dir, name));
  } catch (error) {
    await Deno.remove(tmp, { recursive: true }).catch(() => {});
    throw error;
  }
  const pointer: CopyPointer = { schemaVersion: 2, deno: Deno.version.deno, build: name };
  const next = join(dir, `current.json.${name}`);
  await Deno.writeTextFile(next, JSON.stringify(pointer));
  await Deno.rename(next, join(dir, "current.json"));
  await dropOldBuilds(dir, name).catch(() => {});
  return pointer;
}

/** Removes builds past the newest four that are an hour old, and the folders of builds that died. */
async function dropOldBuilds(dir: string, current: string): Promise<void> {
  const builds: { name: string; at: number }[] = [];
  for await (const entry of Deno.readDir(dir)) {
    if (!entry.isDirectory || !entry.name.startsWith("b-") || entry.name === current) continue;
    builds.push({ name: entry.name, at: (await Deno.stat(join(dir, entry.name))).mtime?.getTime() ?? 0 });
  }
  builds.sort((a, b) => b.at - a.at);
  const now = Date.now();
  for (const [index, b] of builds.entries()) {
    const dead = b.name.endsWith(".tmp") && b.at < now - 3_600_000;
    if (dead || (!b.name.endsWith(".tmp") && index >= KEEP_BUILDS - 1 && b.at < now - KEEP_MS)) {
      await Deno.remove(join(dir, b.name), { recursive: true }).catch(() => {});
    }
  }
}

if (import.meta.main) {
  // tests/setup.sh: make the copy before the tests, so no test pays for it or fetches Deno's bundler.
  const root = join(new URL(".", import.meta.url).pathname, "..");
  const dir = join(root, COPY_DIR);
  if (await heldSet(root, readJson<CopyPointer>(join(dir, "current.json")), ALL)) Deno.exit(0); // current already
  await Deno.remove(join(dir, "failed.json")).catch(() => {});
  const pointer = await buildCopy(root);
  if (!pointer) {
    const failed = await Deno.readTextFile(join(dir, "failed.json")).catch(() =>
      "another build is under way"
    );
    console.error(`spot: no JavaScript copy made: ${failed}`);
    Deno.exit(1);
  }
}
