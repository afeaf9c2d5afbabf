/** What a task's worker is told: its role, the task, what success means, and what its predecessors found. */
import type { JobTask, Role } from "../schemas/job/task.ts";
import { reviewTargets } from "./result.ts";
import type { StoredJob, TaskRecord } from "./store.ts";
import type { TurnContext } from "./launch/context.ts";

const ROLE_RULES: Record<Role, string> = {
  scout: "You are a scout: find where the behaviour lives in this repository. Read only; change no file.",
  research: "You are a researcher: say what the sources you inspected support. Read only; change no file.",
  planner:
    "You are a planner: say what should change, in what order, and how it will be checked. Change no file.",
  builder: "You are a builder: make the change, inside the paths you own only.",
  reviewer: "You are a reviewer: check the work against its acceptance criteria. Read only; change no file.",
};

/** The hosts a research task's web tools may reach (its own list replaces the job's); null for other roles. */
export function webHostsOf(job: Pick<StoredJob, "webHosts">, task: JobTask): string[] | null {
  return task.role === "research" ? task.webHosts ?? job.webHosts ?? [] : null;
}

/** What a research worker is told about the web: the hosts, and that everything else is refused and recorded. */
function webAccess(hosts: string[]): string[] {
  const rule = hosts.length
    ? [
      "Your web tools (if your CLI has them) may fetch only from these hosts:",
      ...hosts.map((h) => `- ${h}`),
      "A fetch from any other host is refused. Every fetch is recorded.",
    ]
    : [
      "No web host is allowed for this task: every fetch is refused and recorded. Work from the repository.",
    ];
  return ["", "## Web access", ...rule];
}

export interface PromptInput {
  /** What each task in its `after` reported. */
  before: { id: string; record: TaskRecord }[];
  /** The parent's notes so far (`spot job note`). */
  notes?: readonly { text: string }[];
  /** Where it starts and what it is shown (graphs/launch/context.ts). */
  context?: Pick<TurnContext, "lines" | "reviewed">;
}

export function taskPrompt(job: StoredJob, task: JobTask, input: PromptInput): string {
  const { before, notes = [], context } = input;
  const out = [ROLE_RULES[task.role], "", "## Task", task.task.trimEnd(), "", "## Acceptance"];
  out.push(...task.acceptance.map((a) => `- ${a}`));
  if (task.ownership?.length) out.push("", "## You own", ...task.ownership.map((p) => `- ${p}`));
  const rules = [...job.instructions, ...task.instructions];
  if (rules.length) out.push("", "## Instructions", ...rules.map((r) => `- ${r}`));
  if (task.context.length) out.push("", "## Context", ...task.context);
  const web = webHostsOf(job, task);
  if (web) out.push(...webAccess(web));
  // `spot job note`: what the parent added while the job ran; a later note may overrule an earlier one.
  if (notes.length) {
    out.push(
      "",
      "## Notes from the parent, oldest first",
      ...notes.map((n) => `- ${n.text.replaceAll("\n", "\n  ")}`),
    );
  }
  for (const { id, record } of before) {
    out.push("", `## What "${id}" reported`, record.summary ?? "(nothing)");
    if (record.result?.brief) out.push("", record.result.brief);
    if (record.changedFiles?.length) out.push(`Changed: ${record.changedFiles.join(", ")}`);
  }
  if (context?.lines.length) out.push("", ...context.lines);
  // A range's one verdict and its fingerprint are in the context's lines.
  const targets = task.reviewBase ? [] : reviewTargets(job.tasks, task);
  if (targets.length) {
    out.push("", "## Review", "Give a verdict on each of these builders, echoing its fingerprint exactly:");
    for (const id of targets) {
      const shown = context?.reviewed?.fingerprints[id] ??
        before.find((b) => b.id === id)?.record.fingerprint;
      out.push(`fingerprint of ${id}: ${shown ?? "(none)"}`);
    }
  }
  out.push("", "---", resultRule(task.role));
  return out.join("\n") + "\n";
}

const ROLE_FIELDS: Record<Role, string> = {
  scout: '"brief" (what the next tasks need to know)',
  planner: '"brief" (the plan)',
  research: '"brief" (at most 8000 characters) and "sources" ([{url, title, supports, applicability}])',
  builder: '"changedFiles" (what you changed) and "checks" ([{name, status: passed|failed|not-run, detail}])',
  reviewer: '"review" ([{taskId, fingerprint, verdict: approve|changes_requested}], one per builder above) ' +
    'and "findings", each with the "requiredChange" it asks and, when you review several builders, the ' +
    '"taskId" it is about',
};

/** How the worker must end its turn: the one JSON object the coordinator reads (schemas/job/result.ts). */
export function resultRule(role: Role): string {
  return [
    "End your turn with your result: one JSON object, in a ```json fence, and nothing after it:",
    '{"status": "succeeded"|"failed"|"blocked", "summary": "...", "findings": [{severity, message, evidence}],',
    `"blockers": [] (why you could not finish), and ${ROLE_FIELDS[role]}}.`,
  ].join("\n");
}

/** The report-only repair turn: the result was unreadable; the worker may only say it again, properly. */
export function repairPrompt(role: Role, problem: string): string {
  return [
    `Your result could not be read: ${problem}.`,
    "Do not change any file: this turn only reports what you already did.",
    "",
    resultRule(role),
  ].join("\n") + "\n";
}
