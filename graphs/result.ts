/**
 * Reading a task's result: the JSON object its worker ended with (schemas/job/result.ts), held to its role's
 * rules. A reviewer's verdicts must name every builder it reviews; whether their fingerprints are still current
 * is integration's question (REVIEW_STALE), since a builder's result can change after its review.
 */
import { extractJsonObject } from "../review/spot_check.ts";
import { BLOCKING_SEVERITIES, TaskResult } from "../schemas/job/result.ts";
import type { JobTask } from "../schemas/job/task.ts";

export type ResultRead = { ok: true; result: TaskResult } | { ok: false; problem: string };

/**
 * What a reviewer gives verdicts on: its `reviewOf`, or else every builder in its `after`; a reviewer of a
 * `reviewBase` range gives one, on the range, under its own id.
 */
export function reviewTargets(tasks: readonly JobTask[], task: JobTask): string[] {
  if (task.role !== "reviewer") return [];
  if (task.reviewBase) return [task.id];
  if (task.reviewOf) return [task.reviewOf];
  return task.after.filter((id) => tasks.find((t) => t.id === id)?.role === "builder");
}

/** The builders no reviewer task reviews: `spot job integrate` refuses them (REVIEW_GATE) until one does. */
export function unreviewedBuilders(tasks: readonly JobTask[]): string[] {
  const reviewed = new Set(tasks.flatMap((t) => reviewTargets(tasks, t)));
  return tasks.filter((t) => t.role === "builder" && !reviewed.has(t.id)).map((t) => t.id);
}

/**
 * A builder no reviewer task reviews can never land (integration needs a reviewer's approval). The job is
 * still accepted, since `spot job add` may bring its reviewer before it ends, but `init` says so at once.
 */
export function unreviewedWarning(jobId: string, tasks: readonly JobTask[]) {
  const ids = unreviewedBuilders(tasks);
  if (!ids.length) return {};
  return {
    unreviewed: ids,
    warnings: [
      `builder(s) ${ids.map((id) => `"${id}"`).join(", ")} have no reviewer task: spot job integrate ` +
      `refuses them (REVIEW_GATE) until a reviewer approves them; add a reviewer with "reviewOf" and "after" ` +
      `naming each one, in the job file or with spot job add ${jobId} FILE`,
    ],
  };
}

/** A reviewer's verdicts as a list (the result may give one object or several). */
export function verdicts(result: Pick<TaskResult, "review"> | undefined) {
  return result?.review === undefined ? [] : Array.isArray(result.review) ? result.review : [result.review];
}

function roleProblem(tasks: readonly JobTask[], task: JobTask, r: TaskResult): string | null {
  if (r.status === "succeeded" && r.blockers.length) return "a succeeded result must have no blockers";
  if (task.role !== "builder" && r.changedFiles.length) {
    return `a ${task.role} changes no file: changedFiles must be empty`;
  }
  if (task.role !== "reviewer" && r.review !== undefined) return `a ${task.role} gives no review`;
  // What a role must hand on is owed only by a result that claims success.
  if (r.status !== "succeeded") return null;
  if ((task.role === "scout" || task.role === "planner") && !r.brief) {
    return `a ${task.role} must give a brief`;
  }
  if (task.role === "research") {
    if (!r.brief || r.brief.length > 8000) return "research must give a brief of at most 8000 characters";
    if (!r.sources.length) return "research must name at least one source";
  }
  if (task.role !== "reviewer") return null;
  const given = verdicts(r);
  const missing = reviewTargets(tasks, task).filter((id) => !given.some((v) => v.taskId === id));
  if (missing.length) return `review must give a verdict on ${missing.join(", ")}`;
  // A finding about one builder (its taskId) stands in the way of approving that builder only.
  for (const v of given.filter((v) => v.verdict === "approve")) {
    const blocking = r.findings.find((f) =>
      BLOCKING_SEVERITIES.has(f.severity) && (f.taskId === undefined || f.taskId === v.taskId)
    );
    if (blocking) return `a review cannot approve "${v.taskId}" with a ${blocking.severity} finding about it`;
  }
  return null;
}

/**
 * A verdict on a change whose fingerprint is not the one the reviewer was shown (`bound`, by task id) does not
 * count: the problem, or null.
 */
export function unboundVerdict(result: TaskResult, bound: Readonly<Record<string, string>>): string | null {
  const wrong = verdicts(result).find((v) =>
    Object.hasOwn(bound, v.taskId) && v.fingerprint !== bound[v.taskId]
  );
  if (!wrong) return null;
  return `the verdict on "${wrong.taskId}" echoes fingerprint ${wrong.fingerprint.slice(0, 12)}, but the ` +
    `change you were shown has fingerprint ${bound[wrong.taskId]}`;
}

export function readResult(text: string, tasks: readonly JobTask[], task: JobTask): ResultRead {
  const json = extractJsonObject(text);
  if (json === undefined || typeof json !== "object" || json === null || Array.isArray(json)) {
    return { ok: false, problem: "the final text holds no JSON object" };
  }
  const parsed = TaskResult.safeParse(json);
  if (!parsed.success) {
    const issues = parsed.error.issues.slice(0, 3).map((i) =>
      `${i.path.join(".") || "(result)"}: ${i.message}`
    );
    return { ok: false, problem: issues.join("; ") };
  }
  const problem = roleProblem(tasks, task, parsed.data);
  return problem ? { ok: false, problem } : { ok: true, result: parsed.data };
}
