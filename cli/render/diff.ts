/**
 * `spot diff` for a person: the verified diff as a coloured unified diff; with `--hunks`, the review tier
 * and why, the self-review's digest, and only the hunks the tier asks to read, each with its reason. Every
 * line is worker-written, so each is cleaned of terminal escapes before colour is added. Pure.
 */
import { cell, type Paint, paint, safeLine, statusColor } from "./style.ts";

export interface DiffResult {
  runId: string;
  diffSha256: string;
  tier?: string;
  why?: string | null;
  count: number;
  readBytes?: number;
  diffBytes?: number;
  selfReview?: {
    summary?: string;
    criteria?: { criterion: string; status: string; cites: number }[];
    findings?: { priority: string; at: string; problem: string }[];
  };
  hunks: { file: string; newStart: number; newCount: number; reason: string | null; text: string }[];
  coveredHunks?: number;
}

function diffLine(line: string, p: Paint): string {
  const text = safeLine(line);
  if (text.startsWith("@@")) return p.cyan(text);
  if (
    /^(diff --git|index |--- |\+\+\+ |new file|deleted file|old mode|new mode|similarity|rename |Binary)/
      .test(text)
  ) {
    return p.bold(text);
  }
  if (text.startsWith("+")) return p.green(text);
  if (text.startsWith("-")) return p.red(text);
  return text;
}

function digestLines(d: NonNullable<DiffResult["selfReview"]>, p: Paint): string[] {
  const out = [`${p.bold("self-review")}: ${cell(d.summary)}`];
  for (const c of d.criteria ?? []) {
    const status = c.status === "met"
      ? p.green(c.status)
      : c.status === "unmet"
      ? p.red(c.status)
      : p.yellow(c.status);
    out.push(
      `  ${status}${" ".repeat(Math.max(1, 10 - c.status.length))}${cell(c.criterion)} (${c.cites} cited)`,
    );
  }
  for (const f of d.findings ?? []) {
    out.push(`  ${p.red(cell(f.priority))} ${cell(f.at)}: ${cell(f.problem)}`);
  }
  return [...out, ""];
}

export function renderDiff(result: DiffResult, options: { color?: boolean } = {}): string {
  const p = paint(options.color ?? false);
  const guided = result.hunks.some((h) => h.reason !== null);
  const head = [
    `${p.bold(`diff of run ${cell(result.runId)}`)} (sha256 ${cell(result.diffSha256).slice(0, 12)}…)` +
    (guided && result.tier
      ? `, tier ${statusColor(cell(result.tier), p)}${result.why ? `: ${cell(result.why)}` : ""}`
      : ""),
    "",
  ];
  const body: string[] = [];
  let file: string | null = null;
  for (const h of result.hunks) {
    const lines = h.text.split("\n");
    if (h.file !== file && !lines[0]?.startsWith("diff --git")) {
      body.push(p.bold(safeLine(`diff --git a/${h.file} b/${h.file}`)));
    }
    file = h.file;
    if (h.reason) body.push(p.dim(`# ${cell(h.reason)}`));
    body.push(...lines.map((l) => diffLine(l, p)));
  }
  const covered = result.coveredHunks ?? 0;
  const bytes = result.readBytes !== undefined && result.diffBytes !== undefined
    ? ` (${result.readBytes} of ${result.diffBytes} bytes)`
    : "";
  const foot = [
    "",
    p.dim(
      `${result.count} hunk${result.count === 1 ? "" : "s"}${bytes}` +
        (covered
          ? `; ${covered} more cited by the self-review (spot diff --id ${cell(result.runId)} shows all)`
          : ""),
    ),
    "",
  ];
  return [...head, ...(result.selfReview ? digestLines(result.selfReview, p) : []), ...body, ...foot].join(
    "\n",
  );
}
