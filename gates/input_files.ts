/**
 * spot's own input files inside the repository. A parent that keeps the contract, the review file or an
 * episode in the checkout (as the README's loop does) would otherwise make the source "dirty": the run would
 * be refused at integrate after all its work. So a file the parent handed to spot that sits untracked in the
 * checkout is left out of the source's fingerprint and dirtiness, by its exact path, from the moment spot
 * reads it. The worker cannot use this: the paths are the parent's, recorded in state.json with the file's
 * sha256, and the escape check still compares each one's content after every worker turn.
 *
 * A repository where one run kept its files keeps them for the next: the review file and the episode of the
 * last run are still there, untracked, when the next task is prepared. So every path spot was handed in a
 * repository is remembered (`<state>/inputs/<repo key>.json`), and at prepare a remembered path that is
 * untracked is left out too, marked `remembered`: the parent rewrites such a file for the new run (a new
 * review), so its content is watched only from the moment this run reads it (`recordInputFile`).
 */
import { basename, dirname, isAbsolute, join, relative, resolve } from "../base/path.ts";
import { readJsonFile, writeJsonAtomic } from "../store/files.ts";
import { dirtyPaths, untrackedAmong } from "../git/fingerprint.ts";
import { sha256Hex } from "../git/hash.ts";
import type { InputFile, RunState } from "../schemas/run_state.ts";
import type { SpotContext } from "../store/context.ts";

/** The file's path relative to `root`, or null when it is not inside it. */
function inside(root: string, file: string): string | null {
  let dir = dirname(file);
  try {
    dir = Deno.realPathSync(dir);
  } catch {
    return null;
  }
  const rel = relative(root, join(dir, basename(file)));
  if (rel === "" || rel.startsWith("..") || isAbsolute(rel) || rel.split("/")[0] === ".git") return null;
  return rel;
}

async function sha256Of(root: string, path: string): Promise<string | null> {
  try {
    return await sha256Hex(await Deno.readFile(join(root, path)));
  } catch {
    return null;
  }
}

/** Of these files (relative to `cwd`), the ones untracked in the checkout at `root`, with their content hash. */
export async function inputFilesIn(root: string, cwd: string, files: string[]): Promise<InputFile[]> {
  const rels = [...new Set(files.map((f) => inside(root, resolve(cwd, f))).filter((r) => r !== null))];
  const untracked = await untrackedAmong(root, rels);
  return await Promise.all(untracked.map(async (path) => ({ path, sha256: await sha256Of(root, path) })));
}

/** How many paths a repository's memory keeps (the newest). */
const REMEMBERED_MAX = 200;

async function memoryFile(ctx: Pick<SpotContext, "paths">, root: string): Promise<string> {
  const real = await Deno.realPath(root).catch(() => root);
  return join(ctx.paths.stateRoot, "inputs", `${(await sha256Hex(real)).slice(0, 24)}.json`);
}

/** The paths spot was handed as its input in the repository at `root`, by earlier runs. */
export async function rememberedInputs(ctx: Pick<SpotContext, "paths">, root: string): Promise<string[]> {
  const memory = await readJsonFile<{ paths?: string[] }>(await memoryFile(ctx, root)).catch(() => null);
  return Array.isArray(memory?.paths) ? memory.paths.filter((p) => typeof p === "string") : [];
}

/** Adds the paths of `files` to the repository's memory (best effort: losing it only costs a warning). */
export async function rememberInputs(
  ctx: Pick<SpotContext, "paths">,
  root: string,
  files: readonly InputFile[],
): Promise<void> {
  if (files.length === 0) return;
  try {
    const file = await memoryFile(ctx, root);
    const had = await rememberedInputs(ctx, root);
    const paths = [...had.filter((p) => !files.some((f) => f.path === p)), ...files.map((f) => f.path)];
    await Deno.mkdir(dirname(file), { recursive: true });
    await writeJsonAtomic(file, { root, paths: paths.slice(-REMEMBERED_MAX) });
  } catch {
    // The memory only spares the next run a dirty source; a run never fails for it.
  }
}

/** Of the remembered paths, those untracked in the checkout now and not among `given`: left out, unwatched. */
export async function rememberedInputFiles(
  ctx: Pick<SpotContext, "paths">,
  root: string,
  given: readonly InputFile[],
): Promise<InputFile[]> {
  const remembered = (await rememberedInputs(ctx, root)).filter((p) => !given.some((f) => f.path === p));
  const untracked = await untrackedAmong(root, remembered);
  return untracked.map((path) => ({ path, sha256: null, remembered: true }));
}

/** The paths a run's source fingerprint leaves out. */
export function inputPaths(state: Pick<RunState, "inputFiles">): string[] {
  return (state.inputFiles ?? []).map((f) => f.path);
}

/** Records one more input file (a review file, as `revise` or `approve` reads it) and saves the run. */
export async function recordInputFile(ctx: SpotContext, state: RunState, file: string): Promise<RunState> {
  const found = await inputFilesIn(state.sourceRoot, ctx.cwd, [file]);
  if (found.length === 0) return state;
  const kept = (state.inputFiles ?? []).filter((f) => !found.some((n) => n.path === f.path));
  await rememberInputs(ctx, state.sourceRoot, found);
  return await ctx.store.save({ ...state, inputFiles: [...kept, ...found], updatedAt: ctx.now() });
}

/** Input files whose content is no longer what spot read: for the escape check, which watches them instead. */
export async function changedInputFiles(
  state: Pick<RunState, "inputFiles" | "sourceRoot">,
): Promise<string[]> {
  const out: string[] = [];
  for (const f of state.inputFiles ?? []) {
    // A remembered file from an earlier run is the parent's to rewrite until this run reads it.
    if (f.remembered) continue;
    if ((await sha256Of(state.sourceRoot, f.path)) !== f.sha256) out.push(f.path);
  }
  return out;
}

/**
 * In words, for prepare's answer when the source is dirty apart from spot's own files: what the worker gets,
 * that integrate will refuse to land the run, and how to avoid it.
 */
export async function dirtySourceWarning(
  root: string,
  state: Pick<RunState, "inputFiles" | "workerBranch">,
): Promise<string> {
  const paths = await dirtyPaths(root, { exclude: inputPaths(state) });
  const own = inputPaths(state);
  const remembered = own.length ? own.join(", ") : "none here";
  const more = paths.length > 5 ? `, and ${paths.length - 5} more` : "";
  return `The source checkout has uncommitted changes (${paths.slice(0, 5).join(", ")}${more}): the worker ` +
    `starts from them, but integrate will refuse to land this run, and its work will stay on ` +
    `${state.workerBranch}. To have it integrated, commit or stash them (or list them in .git/info/exclude) ` +
    `and prepare again. Files spot was handed in this repository (a contract, an episode, a review file, ` +
    `a usage snapshot) are not counted: ${remembered}`;
}
