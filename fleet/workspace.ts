/**
 * An executor's scratch space for one attempt: a source repository at the origin's HEAD that borrows the
 * repository store's objects (so only missing bundles are fetched, and the attempt's own commits stay out of the
 * store), the contract as the executor's `prepare` reads it, and a replay episode when the work brought one. The
 * attempt's run (its directory, its worktree) is scratch too: the origin keeps the record, and a dead attempt's
 * leftovers are discarded when the executor starts again.
 */
import { dirname, join } from "../base/path.ts";
import { git } from "../git/git.ts";
import type { WorkItem } from "../queue/item.ts";
import type { Queue } from "../queue/types.ts";
import type { SpotContext } from "../store/context.ts";
import { writeJsonAtomic } from "../store/files.ts";
import { fetchCommit, repoStore } from "./repo_sync.ts";

export interface Workspace {
  dir: string;
  source: string;
  taskFile: string;
  /** The episode's file for a replay profile (its model); the item's model otherwise. */
  model: string;
  /** Bundles fetched for this attempt (0: the executor had every commit already). */
  fetched: number;
}

const workspaceDir = (ctx: SpotContext, runId: string) => join(ctx.paths.cacheRoot, "fleet", "tasks", runId);

export async function makeWorkspace(
  ctx: SpotContext,
  queue: Queue,
  options: { item: WorkItem; runId: string },
): Promise<Workspace> {
  const { item, runId } = options;
  const dir = workspaceDir(ctx, runId);
  await Deno.remove(dir, { recursive: true }).catch(() => {});
  const scratch = join(dir, "scratch");
  await Deno.mkdir(scratch, { recursive: true, mode: 0o700 });
  const store = await repoStore(ctx.paths.cacheRoot, item.repo.id);
  let fetched = 0;
  for (
    const commit of new Set([
      item.repo.head,
      item.repo.start,
      ...(item.repo.checkout ? [item.repo.checkout] : []),
    ])
  ) {
    // An attempt cancelled while its bundles download stops at once, not after the queue's patience.
    fetched += await fetchCommit(queue, store, { repoId: item.repo.id, commit, scratch, signal: ctx.signal });
  }
  const source = join(dir, "src");
  await git(["init", "--quiet", source], { cwd: dir });
  await Deno.writeTextFile(
    join(source, ".git", "objects", "info", "alternates"),
    join(store, "objects") + "\n",
  );
  await git(["checkout", "--quiet", "--detach", item.repo.head], { cwd: source });
  const taskFile = join(dir, "task.json");
  await writeJsonAtomic(taskFile, {
    ...item.contract,
    runId,
    repositoryRoot: source,
    baseRevision: item.repo.head,
  });
  let model = item.model;
  if (item.episode !== undefined) {
    model = join(dir, "episode.jsonl");
    await Deno.writeTextFile(model, item.episode);
  }
  return { dir, source, taskFile, model, fetched };
}

/**
 * The turn's attachments written into the attempt's run dir at the paths they had in the origin's, and the turn
 * with the prompt naming them here.
 */
export async function placeAttachments(
  ctx: SpotContext,
  runId: string,
  item: WorkItem,
): Promise<WorkItem["turn"] & { attachments?: string[] }> {
  if (!item.attachments?.files.length) return item.turn;
  const runDir = ctx.store.dir(runId);
  const attachments: string[] = [];
  for (const f of item.attachments.files) {
    const path = join(runDir, f.path);
    await Deno.mkdir(dirname(path), { recursive: true, mode: 0o700 });
    await Deno.writeTextFile(path, f.content, { mode: 0o600 });
    attachments.push(path);
  }
  const prompt = item.turn.prompt?.replaceAll(item.attachments.base, runDir);
  return { ...item.turn, ...(prompt !== undefined ? { prompt } : {}), attachments };
}

/** Removes an attempt's run, its worktree and its scratch space. */
export async function discardAttempt(ctx: SpotContext, runId: string): Promise<void> {
  const state = await ctx.store.load(runId).catch(() => null);
  if (state?.worktreePath) await Deno.remove(state.worktreePath, { recursive: true }).catch(() => {});
  await Deno.remove(ctx.store.dir(runId), { recursive: true }).catch(() => {});
  await Deno.remove(workspaceDir(ctx, runId), { recursive: true }).catch(() => {});
}

/** The attempts a killed executor left here: their results were never published, and never will be. */
export async function discardLeftovers(ctx: SpotContext): Promise<string[]> {
  const left = (await ctx.store.all()).filter((s) => s.fleet?.role === "executor").map((s) => s.runId);
  for (const runId of left) await discardAttempt(ctx, runId);
  // Scratch spaces whose run was never made (killed while fetching).
  const tasks = join(ctx.paths.cacheRoot, "fleet", "tasks");
  try {
    for await (const e of Deno.readDir(tasks)) {
      if (!left.includes(e.name)) await Deno.remove(join(tasks, e.name), { recursive: true }).catch(() => {});
    }
  } catch (error) {
    if (!(error instanceof Deno.errors.NotFound)) throw error;
  }
  return left;
}
