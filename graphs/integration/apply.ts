/**
 * Apply mode (`config.integration: "apply"`, the pinata seed's): the landing built and checked in a scratch
 * tree from the job's base (gates/landing.ts) is written into the user's checkout as files, never committed,
 * the index kept. Every file's content in the checkout is checked first (it must still be as the job's base
 * has it), a journal with the before-blobs is written before anything changes, a write that fails part way
 * puts back every file already written, and `spot job rollback` restores exactly what this changed.
 */
import { join } from "../../base/path.ts";
import { SpotError } from "../../errors.ts";
import { git, gitText } from "../../git/git.ts";
import { changedPaths } from "../../git/land.ts";
import type { SpotContext } from "../../store/context.ts";
import {
  blobFile,
  type FileSide,
  journalDir,
  type JournalEntry,
  restoreSide,
  sideOf,
  writeJournal,
} from "./journal.ts";

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

/** Which builder's commit last changed each path of the landing. */
async function ownersOf(cwd: string, onto: string, commits: { task: string; commit: string }[]) {
  const owners = new Map<string, string>();
  let from = onto;
  for (const c of commits) {
    for (const change of await changedPaths(cwd, from, c.commit)) owners.set(change.path, c.task);
    from = c.commit;
  }
  return owners;
}

/** The tip's version of `paths` written under `dir`, as git would check them out (content, mode, filters). */
async function materialize(cwd: string, tip: string, paths: string[], dir: string): Promise<void> {
  const index = { cwd, indexFile: join(dir, "..", `.index-${crypto.randomUUID()}`) };
  try {
    await git(["read-tree", tip], index);
    if (paths.length) await git(["checkout-index", "-f", `--prefix=${dir}/`, "--", ...paths], index);
  } finally {
    await Deno.remove(index.indexFile).catch(() => {});
  }
}

export interface ApplyInput {
  jobId: string;
  cwd: string;
  /** The job's base: what the checkout's files must still hold. */
  base: string;
  /** The checked landing, and each builder's commit in it. */
  tip: string;
  commits: { task: string; commit: string }[];
}

/** Plans every file, refusing before anything changes; then journals and writes them. Returns the paths. */
export async function applyLanding(ctx: SpotContext, input: ApplyInput): Promise<string[]> {
  const { cwd, jobId } = input;
  const changes = await changedPaths(cwd, input.base, input.tip);
  const owners = await ownersOf(cwd, input.base, input.commits);
  const staging = join(journalDir(ctx.paths, jobId), "after");
  await Deno.remove(staging, { recursive: true }).catch(() => {});
  await Deno.mkdir(staging, { recursive: true, mode: 0o700 });
  try {
    const present = changes.filter((c) => c.status !== "D").map((c) => c.path);
    await materialize(cwd, input.tip, present, staging);
    const plan: { entry: JournalEntry; bytes: Uint8Array | null }[] = [];
    for (const { path, status } of changes) {
      if ((await blobOfFile(cwd, path)) !== (await blobAt(cwd, input.base, path))) {
        throw blocked(`Cannot apply "${path}": it changed in the checkout since the builders started`, {
          path,
        });
      }
      const { bytes, symlink, ...after } = await sideOf(join(staging, path));
      if (symlink || (status !== "D" && !after.exists)) {
        throw blocked(`Cannot apply "${path}": not a regular file`, { path });
      }
      const { bytes: old, symlink: oldLink, ...before } = await sideOf(join(cwd, path));
      if (oldLink) throw blocked(`Cannot apply "${path}": not a regular file in the checkout`, { path });
      if (old) {
        await Deno.mkdir(join(journalDir(ctx.paths, jobId), "before"), { recursive: true, mode: 0o700 });
        await Deno.writeFile(blobFile(ctx.paths, jobId, before.sha256!), old, { mode: 0o600 });
      }
      const task = owners.get(path) ?? input.commits.at(-1)?.task ?? "";
      plan.push({ entry: { path, task, before, after }, bytes: bytes ?? null });
    }
    const entries = plan.map((p) => p.entry);
    await writeJournal(ctx.paths, jobId, { schemaVersion: 1, state: "applying", at: ctx.now(), entries });
    try {
      for (const p of plan) await restoreSide(join(cwd, p.entry.path), p.entry.after, p.bytes);
    } catch (error) {
      await putBack(ctx, jobId, cwd, entries);
      const why = `writing the files failed part way (${(error as Error).message}); every file was put back`;
      await writeJournal(ctx.paths, jobId, {
        schemaVersion: 1,
        state: "rolled-back",
        at: ctx.now(),
        entries,
        failure: why,
      });
      throw blocked(`Cannot apply job "${jobId}": ${why}`);
    }
    await writeJournal(ctx.paths, jobId, { schemaVersion: 1, state: "applied", at: ctx.now(), entries });
    return entries.map((e) => e.path);
  } finally {
    await Deno.remove(staging, { recursive: true }).catch(() => {});
  }
}

/** Every journaled file back to its before side (a file not written yet already is). */
async function putBack(ctx: SpotContext, jobId: string, cwd: string, entries: JournalEntry[]) {
  for (const e of entries) {
    const before: FileSide = e.before;
    const bytes = before.exists ? await Deno.readFile(blobFile(ctx.paths, jobId, before.sha256!)) : null;
    await restoreSide(join(cwd, e.path), before, bytes).catch(() => {});
  }
}
