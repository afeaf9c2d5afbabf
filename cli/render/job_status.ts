/** `spot job status` for a person: the job's state, then one aligned row per task in the graph's order. Pure. */
import { cell, columns, paint, statusColor } from "./style.ts";

/** The fields of `job status` this view reads (the JSON is the job's view, graphs/verbs.ts). */
export interface JobStatusResult {
  jobId: string;
  status: string;
  reason?: string;
  coordinatorAlive?: boolean;
  tasks: {
    id: string;
    role: string;
    state: string;
    reason?: string;
    runId?: string;
    changedFiles?: string[];
    executor?: string;
  }[];
  /** What the job landed, or why its last integration landed nothing (graphs/integration/view.ts). */
  integration?: { landed: boolean; summary: string };
}

/** A few changed files, then how many more. */
function changed(files: string[] | undefined): string {
  if (!files?.length) return "";
  const shown = files.slice(0, 3).map(cell).join(" ");
  return files.length > 3 ? `${shown} +${files.length - 3} more` : shown;
}

export function renderJobStatus(result: JobStatusResult, options: { color?: boolean } = {}): string {
  const p = paint(options.color ?? false);
  const counts = new Map<string, number>();
  for (const t of result.tasks) counts.set(t.state, (counts.get(t.state) ?? 0) + 1);
  const tally = [...counts].map(([state, n]) => `${n} ${cell(state)}`).join(", ");
  const coordinator = result.coordinatorAlive ? "coordinator running" : "no coordinator running";
  const head = [
    `${p.bold(`job ${cell(result.jobId)}`)}: ${statusColor(cell(result.status), p)} (${coordinator})`,
    ...(result.reason ? [`  ${cell(result.reason)}`] : []),
    `${result.tasks.length} task${result.tasks.length === 1 ? "" : "s"}${tally ? `: ${tally}` : ""}`,
    ...(result.integration ? [`integration: ${cell(result.integration.summary)}`] : []),
    "",
  ];
  const rows = result.tasks.map((t) => [
    cell(t.id),
    cell(t.role),
    cell(t.state),
    cell(t.runId),
    [t.executor ? `on ${cell(t.executor)}` : "", t.reason ? cell(t.reason) : "", changed(t.changedFiles)]
      .filter(Boolean).join("; "),
  ]);
  const table = columns(["TASK", "ROLE", "STATE", "RUN", "DETAIL"], rows, {
    bold: p.bold,
    paintCell: (i, text) => i === 2 ? statusColor(text, p) : i === 0 ? p.cyan(text) : text,
  });
  return [...head, ...table, ""].join("\n");
}
