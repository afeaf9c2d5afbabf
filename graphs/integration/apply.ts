/**
 * Apply mode (`config.integration: "apply"`, the pinata seed's): each builder's changed files are written into
 * the user's checkout, never committed, the index kept. Every file's starting content is checked first (it
 * must be the builders' base), a journal with the before-blobs is written before anything changes, and
 * `spot job rollback` restores exactly what this changed.
 */
import { join } from "../../base/path.ts";
import { SpotError } from "../../errors.ts";
import { computeDelta } from "../../git/delta.ts";
import { git, gitText } from "../../git/git.ts";
import { worktreeOf } from "../../lifecycle/worktree.ts";
import type { JobTask } from "../../schemas/job/task.ts";
import type { SpotContext } from "../../store/context.ts";
import { blobFile, type JournalEntry, restoreSide, sideOf, writeJournal } from "./journal.ts";
import type { JobState, StoredJob } from "../store.ts";
import { diffPaths } from "../task_run.ts";

const blocked = (message: string, details: Record<string, unknown> = {}) =>
  new SpotError("INTEGRATION_BLOCKED", message, { details });

/** The blob a path had at `rev`, or null when it had none. */
async function blobAt(cwd: string, rev: string, path: string): Promise<string | null> {
  const r = await git(["rev-parse", "--verify", "--quiet", `${rev}:${path}`], { cwd, allowFailure: true });
  return r.exitCode === 0 ? r.stdout.trim() : null;
}

async function blobOfFile(cwd: string, path: string): Promise<string | null> {
  const info = await Deno.lstat(join(cwd, path)).catch(() => null);
  if (!info) return null;
  return await gitText(["hash-object", "--no-filters", "--", path], { cwd });
}

/** Plans every builder's files, refusing before anything changes; then journals and writes them. */
export async function applyBuilders(
  ctx: SpotContext,
  job: StoredJob,
  state: JobState,
  builders: JobTask[],
): Promise<string[]> {
  const head = await gitText(["rev-parse", "HEAD"], { cwd: job.cwd });
  const plan: { entry: Omit<JournalEntry, "before">; from: string; bytes?: Uint8Array }[] = [];
  for (const b of builders) {
    const runId = state.tasks[b.id].runId!;
    const run = await ctx.store.load(runId);
    // Built on HEAD, or on the job's snapshot of the uncommitted work on top of this HEAD.
    const onJobBase = state.base?.head === head && run.workerBaseRevision === state.base.commit;
    if (run.workerBaseRevision !== head && !onJobBase) {
      throw blocked(`Cannot apply "${b.id}": the checkout's HEAD is not the commit it was built on`, {
        head,
        base: run.workerBaseRevision,
      });
    }
    const worktree = await worktreeOf(run);
    const verified = await ctx.store.readJson<{ diffSha256: string }>(runId, "verification.json");
    const delta = await computeDelta(worktree, run.workerBaseRevision, ctx.store.dir(runId));
    if (delta.diffSha256 !== verified?.diffSha256) {
      throw new SpotError(
        "DIFF_CHANGED",
        `Cannot apply "${b.id}": its worktree changed since it was verified`,
      );
    }
    for (const path of diffPaths(delta.diff)) {
      if (plan.some((p) => p.entry.path === path)) {
        throw blocked(`Cannot apply "${path}": two builders changed it`, { path });
      }
      const expected = await blobAt(job.cwd, run.workerBaseRevision, path);
      if ((await blobOfFile(job.cwd, path)) !== expected) {
        throw blocked(`Cannot apply "${path}": it changed in the checkout since the builders started`, {
          path,
        });
      }
      const after = await sideOf(join(worktree.path, path));
      if (after.symlink) throw blocked(`Cannot apply "${path}": not a regular file`, { path });
      const { bytes, symlink: _, ...side } = after;
      plan.push({ entry: { path, task: b.id, after: side }, from: worktree.path, bytes });
    }
  }
  const entries: JournalEntry[] = [];
  for (const p of plan) {
    const before = await sideOf(join(job.cwd, p.entry.path));
    if (before.symlink) throw blocked(`Cannot apply "${p.entry.path}": not a regular file`);
    const { bytes, symlink: _, ...side } = before;
    if (bytes) {
      await Deno.mkdir(join(blobFile(ctx.paths, job.jobId, "x"), ".."), { recursive: true, mode: 0o700 });
      await Deno.writeFile(blobFile(ctx.paths, job.jobId, side.sha256!), bytes, { mode: 0o600 });
    }
    entries.push({ ...p.entry, before: side });
  }
  await writeJournal(ctx.paths, job.jobId, { schemaVersion: 1, state: "applying", at: ctx.now(), entries });
  for (const p of plan) await restoreSide(join(job.cwd, p.entry.path), p.entry.after, p.bytes ?? null);
  await writeJournal(ctx.paths, job.jobId, { schemaVersion: 1, state: "applied", at: ctx.now(), entries });
  return plan.map((p) => p.entry.path);
}
