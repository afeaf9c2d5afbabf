/**
 * spot's own input files inside the repository. A parent that keeps the contract, the review file or an
 * episode in the checkout (as the README's loop does) would otherwise make the source "dirty": the run would
 * be refused at integrate after all its work. So a file the parent handed to spot that sits untracked in the
 * checkout is left out of the source's fingerprint and dirtiness, by its exact path, from the moment spot
 * reads it. The worker cannot use this: the paths are the parent's, recorded in state.json with the file's
 * sha256, and the escape check still compares each one's content after every worker turn.
 */
import { basename, dirname, isAbsolute, join, relative, resolve } from "../base/path.ts";
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

/** The paths a run's source fingerprint leaves out. */
export function inputPaths(state: Pick<RunState, "inputFiles">): string[] {
  return (state.inputFiles ?? []).map((f) => f.path);
}

/** Records one more input file (a review file, as `revise` or `approve` reads it) and saves the run. */
export async function recordInputFile(ctx: SpotContext, state: RunState, file: string): Promise<RunState> {
  const found = await inputFilesIn(state.sourceRoot, ctx.cwd, [file]);
  if (found.length === 0) return state;
  const kept = (state.inputFiles ?? []).filter((f) => !found.some((n) => n.path === f.path));
  return await ctx.store.save({ ...state, inputFiles: [...kept, ...found], updatedAt: ctx.now() });
}

/** Input files whose content is no longer what spot read: for the escape check, which watches them instead. */
export async function changedInputFiles(
  state: Pick<RunState, "inputFiles" | "sourceRoot">,
): Promise<string[]> {
  const out: string[] = [];
  for (const f of state.inputFiles ?? []) {
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
  const more = paths.length > 5 ? `, and ${paths.length - 5} more` : "";
  return `The source checkout has uncommitted changes (${paths.slice(0, 5).join(", ")}${more}): the worker ` +
    `starts from them, but integrate will refuse to land this run, and its work will stay on ` +
    `${state.workerBranch}. To have it integrated, commit or stash them and prepare again; spot's own files ` +
    `in the repository (the contract, an episode, review files) do not count`;
}
