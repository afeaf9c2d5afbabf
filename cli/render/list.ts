/** `spot list` for a person: one aligned row per run, newest first, and how many more there are. Pure. */
import { cell, columns, paint, shortTime, statusColor } from "./style.ts";

/** The fields of a `list` row this view reads (the JSON has more). */
export interface ListRow {
  runId: string;
  origin?: string;
  status: string;
  caller?: string | null;
  profile?: string | null;
  model?: string | null;
  updatedAt?: string;
  revisionRound?: number;
  fallbackUsed?: boolean;
  integratedCommit?: string | null;
  failure?: string | null;
}

export interface ListResult {
  /** `list` rows (store/run_entry.ts `summarize`); read as ListRow, whatever else they hold. */
  runs: readonly unknown[];
  count: number;
  total?: number;
  offset?: number;
}

/** A replay model is an episode file: its name says enough. */
function modelName(model: string | null | undefined): string {
  const text = cell(model);
  return text.includes("/") ? text.slice(text.lastIndexOf("/") + 1) : text;
}

function note(run: ListRow): string {
  const parts: string[] = [];
  if (run.failure) parts.push(run.failure);
  if (run.origin === "pi-worker") parts.push("from pi-worker, read-only");
  if (run.revisionRound) parts.push(`revision ${run.revisionRound}`);
  if (run.fallbackUsed) parts.push("fallback");
  if (run.integratedCommit) parts.push(`landed ${run.integratedCommit.slice(0, 10)}`);
  return parts.map(cell).join(", ");
}

export function renderList(result: ListResult, options: { color?: boolean } = {}): string {
  const p = paint(options.color ?? false);
  const total = result.total ?? result.count;
  if (result.runs.length === 0) {
    return total === 0 ? "No runs.\n" : `No runs on this page (${total} match; try a smaller --offset).\n`;
  }
  const rows = (result.runs as ListRow[]).map((r) => [
    cell(r.runId),
    cell(r.status),
    cell(r.profile),
    modelName(r.model),
    cell(r.caller),
    shortTime(r.updatedAt),
    note(r),
  ]);
  const lines = columns(["RUN", "STATUS", "PROFILE", "MODEL", "CALLER", "UPDATED (UTC)", "NOTE"], rows, {
    bold: p.bold,
    paintCell: (i, text) => i === 1 ? statusColor(text, p) : i === 0 ? p.cyan(text) : text,
  });
  const from = (result.offset ?? 0) + 1;
  // The rows come newest first (verbs/query.ts); the footer says so, whether or not they are all shown.
  const shown = result.runs.length === total
    ? `${total} run${total === 1 ? "" : "s"}, newest first`
    : `runs ${from}-${from + result.runs.length - 1} of ${total}, newest first (--all shows every run)`;
  return [...lines, p.dim(shown), ""].join("\n");
}
