/** What a task's worker is told: its role, the task, what success means, and what its predecessors found. */
import type { JobTask, Role } from "../schemas/job/task.ts";
import type { StoredJob, TaskRecord } from "./store.ts";

const ROLE_RULES: Record<Role, string> = {
  scout: "You are a scout: find where the behaviour lives in this repository. Read only; change no file.",
  research: "You are a researcher: say what the sources you inspected support. Read only; change no file.",
  planner:
    "You are a planner: say what should change, in what order, and how it will be checked. Change no file.",
  builder: "You are a builder: make the change, inside the paths you own only.",
  reviewer: "You are a reviewer: check the work against its acceptance criteria. Read only; change no file.",
};

export function taskPrompt(
  job: StoredJob,
  task: JobTask,
  before: { id: string; record: TaskRecord }[],
): string {
  const out = [ROLE_RULES[task.role], "", "## Task", task.task.trimEnd(), "", "## Acceptance"];
  out.push(...task.acceptance.map((a) => `- ${a}`));
  if (task.ownership?.length) out.push("", "## You own", ...task.ownership.map((p) => `- ${p}`));
  const rules = [...job.instructions, ...task.instructions];
  if (rules.length) out.push("", "## Instructions", ...rules.map((r) => `- ${r}`));
  if (task.context.length) out.push("", "## Context", ...task.context);
  for (const { id, record } of before) {
    out.push("", `## What "${id}" reported`, record.summary ?? "(nothing)");
    if (record.changedFiles?.length) out.push(`Changed: ${record.changedFiles.join(", ")}`);
  }
  out.push("", "---", "End with your result: it is what the job's coordinator reads.");
  return out.join("\n") + "\n";
}
