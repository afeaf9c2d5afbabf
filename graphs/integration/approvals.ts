/**
 * What a job's integration needs before anything is built: its builders in `after` order, each approved by a
 * reviewer task whose verdict echoes the builder's current fingerprint (REVIEW_GATE, REVIEW_STALE otherwise).
 */
import { SpotError } from "../../errors.ts";
import type { JobTask } from "../../schemas/job/task.ts";
import { reviewTargets, verdicts } from "../result.ts";
import type { JobState } from "../store.ts";

/** The tasks in an order where each comes after everything in its `after` (the job's order otherwise). */
export function afterOrder(tasks: readonly JobTask[]): JobTask[] {
  const done = new Set<string>();
  const out: JobTask[] = [];
  while (out.length < tasks.length) {
    const next = tasks.find((t) => !done.has(t.id) && t.after.every((a) => done.has(a)));
    if (!next) break; // a cycle: validation refuses one before anything runs
    done.add(next.id);
    out.push(next);
  }
  return out;
}

/** Who approved each builder, or why integration is refused (REVIEW_GATE, REVIEW_STALE). */
export function requireApprovals(tasks: readonly JobTask[], state: JobState, builders: JobTask[]): string[] {
  return builders.map((b) => {
    const current = state.tasks[b.id].fingerprint;
    const given = tasks
      .filter((r) => reviewTargets(tasks, r).includes(b.id))
      .flatMap((r) => verdicts(state.tasks[r.id].result).map((v) => ({ r, v })))
      .filter(({ v }) => v.taskId === b.id);
    const approving = given.filter(({ v }) => v.verdict === "approve");
    if (!approving.length) {
      const asked = given.find(({ v }) => v.verdict === "changes_requested");
      const reviewers = tasks.filter((r) => reviewTargets(tasks, r).includes(b.id)).map((r) => r.id);
      const job = state.jobId ?? "JOB";
      const hint = asked
        ? `repair it (spot job repair ${job} ${b.id} TEXT): the repair is told the reviewer's findings`
        : reviewers.length
        ? `its reviewers (${reviewers.join(", ")}) gave no approving verdict on it`
        : `no reviewer task reviews it: add one (spot job add ${job} FILE, a reviewer with "reviewOf": ` +
          `"${b.id}" and "${b.id}" in its after), run it (spot job resume ${job}), then integrate again`;
      throw new SpotError(
        "REVIEW_GATE",
        asked
          ? `Cannot integrate builder "${b.id}": reviewer "${asked.r.id}" requested changes`
          : `Cannot integrate builder "${b.id}": no reviewer task approved it; ${hint}`,
        { details: { task: b.id, reviewers, hint } },
      );
    }
    const fresh = approving.find(({ v }) => v.fingerprint === current);
    if (!fresh) {
      const { r, v } = approving[0];
      throw new SpotError(
        "REVIEW_STALE",
        `Cannot integrate builder "${b.id}": reviewer "${r.id}" approved fingerprint ${
          v.fingerprint.slice(0, 12)
        }, but its current result is ${current?.slice(0, 12) ?? "unknown"}`,
        { details: { task: b.id, reviewer: r.id, reviewed: v.fingerprint, current } },
      );
    }
    return fresh.r.id;
  });
}

/** A job that has not succeeded (yet) is a lifecycle refusal, with what to do next. */
export function notYet(jobId: string, status: JobState["status"]): never {
  const next = {
    created: { why: "it has not started", nextCommand: `spot job start ${jobId}` },
    running: { why: "it is running", nextCommand: `spot job wait ${jobId}` },
    failed: { why: "it failed", nextCommand: `spot job status ${jobId}` },
    cancelled: { why: "it was cancelled", nextCommand: undefined },
    succeeded: { why: "", nextCommand: undefined },
  }[status];
  const then = status === "running"
    ? "; wait for it to end, then integrate"
    : status === "failed"
    ? "; repair the tasks that did not succeed (spot job repair), then integrate"
    : "";
  throw new SpotError(
    "STATE_INVALID",
    `Cannot integrate job "${jobId}": ${next.why}; every task must succeed first${then}`,
    { details: { jobId, status, ...(next.nextCommand ? { nextCommand: next.nextCommand } : {}) } },
  );
}
