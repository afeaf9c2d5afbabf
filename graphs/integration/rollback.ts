/**
 * `spot job rollback JOB [--confirm]`: undoes an apply-mode integration from its journal, under the
 * repository's landing lock. Every file must still be as integration left it, or nothing is restored
 * (ROLLBACK_REFUSED, naming the files changed since); without --confirm it only says what it would restore.
 * After a rollback the job can be repaired and integrated again, which lands the new attempts.
 */
import { join } from "../../base/path.ts";
import { SpotError } from "../../errors.ts";
import { blobFile, readJournal, restoreSide, sameSide, sideOf, writeJournal } from "./journal.ts";
import { appendEvent, type JobState, loadJob, type StoredJob, updateJob } from "../store.ts";
import { withLanding } from "../../git/landing_lock.ts";
import type { SpotContext } from "../../store/context.ts";

export async function rollbackJob(ctx: SpotContext, jobId: string, options: { confirm?: boolean } = {}) {
  const { job, state } = await loadJob(ctx.paths, jobId);
  if (job.config.integration === "commit") commitMode(jobId, state);
  // One landing at a time: a rollback changes the checkout like a landing does.
  return await withLanding(job.cwd, { what: `rollback of job ${jobId}` }, () => rollback(ctx, job, options));
}

async function rollback(ctx: SpotContext, job: StoredJob, options: { confirm?: boolean }) {
  const jobId = job.jobId;
  const journal = await readJournal(ctx.paths, jobId);
  if (!journal || journal.state !== "applied") {
    throw new SpotError(
      "ROLLBACK_REFUSED",
      `Cannot roll back job "${jobId}": ${
        journal ? `its integration is ${journal.state}` : "nothing was applied"
      }`,
      { details: { jobId } },
    );
  }
  const files = journal.entries.map((e) => e.path);
  const changed: string[] = [];
  for (const e of journal.entries) {
    const { bytes: _, symlink, ...now } = await sideOf(join(job.cwd, e.path));
    if (symlink || !sameSide(now, e.after)) changed.push(e.path);
  }
  if (changed.length) {
    throw new SpotError(
      "ROLLBACK_REFUSED",
      `Cannot roll back job "${jobId}": changed since integration: ${
        changed.join(", ")
      }; nothing was restored`,
      { details: { jobId, changed } },
    );
  }
  if (!options.confirm) {
    return { jobId, rolledBack: false, files, nextCommand: `spot job rollback ${jobId} --confirm` };
  }
  for (const e of journal.entries) {
    const bytes = e.before.exists ? await Deno.readFile(blobFile(ctx.paths, jobId, e.before.sha256!)) : null;
    await restoreSide(join(job.cwd, e.path), e.before, bytes);
  }
  const at = ctx.now();
  await writeJournal(ctx.paths, jobId, { ...journal, state: "rolled-back", at });
  await updateJob(ctx.paths, jobId, (_, s) => ({
    state: {
      ...s,
      updatedAt: at,
      ...(s.integration ? { integration: { ...s.integration, rolledBackAt: at } } : {}),
    },
  }));
  await appendEvent(ctx.paths, jobId, { at, type: "job", state: "rolled-back" });
  return { jobId, rolledBack: true, files };
}

/**
 * Commit mode writes no journal: its landing is ordinary commits on the branch, undone the way any commit is,
 * with `git revert` (newest first), which spot leaves to the user since it rewrites nothing it did not make.
 */
function commitMode(jobId: string, state: Pick<JobState, "integration">): never {
  const commits = (state.integration?.commits ?? []).map((c) => c.commit).reverse();
  const revert = commits.length ? `git revert --no-edit ${commits.join(" ")}` : undefined;
  const what = revert
    ? `its builders landed as commits on the branch (${
      commits.map((c) => c.slice(0, 12)).join(", ")
    }); to undo them, revert them, newest first: ${revert}`
    : "nothing of it landed";
  throw new SpotError(
    "ROLLBACK_REFUSED",
    `Cannot roll back job "${jobId}": it integrates in commit mode, which has no rollback (only apply mode ` +
      `does); ${what}`,
    { details: { jobId, mode: "commit", commits, ...(revert ? { nextCommand: revert } : {}) } },
  );
}
