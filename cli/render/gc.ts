/**
 * `spot gc` for a person: a preview says what it would collect and that nothing was removed; with
 * `--confirm`, what it collected. Then the runs it keeps, each with the reason (and the command that moves it
 * on), and what killed processes left. Pure: the verb's result in, text out; `--json`, or a pipe, keeps the
 * JSON.
 */
import { cell, columns, paint, statusColor } from "./style.ts";

type Json = Record<string, unknown>;
const obj = (v: unknown): Json => (typeof v === "object" && v !== null && !Array.isArray(v) ? v as Json : {});
const list = (v: unknown): Json[] => (Array.isArray(v) ? v.map(obj) : []);

/** The result of `gc` (upkeep/gc.ts). */
export type GcResult = Json;

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

export function renderGc(result: GcResult, options: { color?: boolean } = {}): string {
  const p = paint(options.color ?? false);
  const confirm = result.confirm === true;
  const runs = list(confirm ? result.collected : result.wouldCollect);
  const retained = list(result.retained);
  const leftovers = list(result.reclaimed);
  const age = cell(result.olderThan);
  const out = [
    confirm
      ? `${p.bold("gc")}  collected ended runs untouched for ${age}`
      : `${p.bold("gc")}  ${p.yellow("preview")}: nothing was removed; ended runs untouched for ${age}`,
  ];
  const verb = confirm ? "Collected" : "Would collect";
  out.push("", p.bold(`${verb} ${plural(runs.length, "run")}`));
  if (runs.length) {
    const rows = runs.map((r) => [
      cell(r.runId),
      cell(r.status),
      `${
        r.branchOnly === true
          ? `branch ${cell(r.branch)} (kept at cleanup; the worktree went then)`
          : `worktree ${cell(r.worktree)}, branch ${cell(r.branch)}`
      }${r.diffFile ? `; diff saved to ${cell(r.diffFile)}` : ""}`,
    ]);
    out.push(
      ...columns(["RUN", "STATUS", confirm ? "REMOVED" : "WOULD REMOVE"], rows, {
        bold: p.dim,
        paintCell: (i, t) => i === 1 ? statusColor(t, p) : t,
      }).map((l) => `  ${l}`),
    );
  }
  if (retained.length) {
    out.push("", p.bold(`Kept ${plural(retained.length, "run")}`));
    const rows = retained.map((r) => [
      cell(r.runId),
      cell(r.status),
      `${cell(r.reason)}${r.nextCommand ? `: ${cell(r.nextCommand)}` : ""}`,
    ]);
    out.push(
      ...columns(["RUN", "STATUS", "WHY"], rows, {
        bold: p.dim,
        paintCell: (i, t) => i === 1 ? statusColor(t, p) : t,
      }).map((l) => `  ${l}`),
    );
  }
  const clean = typeof result.alreadyClean === "number" ? result.alreadyClean : 0;
  if (clean) {
    out.push(
      "",
      `${plural(clean, "run")} cleaned up before: nothing of ${clean === 1 ? "it" : "them"} left to remove`,
    );
  }
  out.push(
    "",
    leftovers.length
      ? p.bold(
        `${confirm ? "Removed" : "Would remove"} ${plural(leftovers.length, "leftover")} of killed processes`,
      )
      : "No leftovers of killed processes",
  );
  for (const l of leftovers) {
    out.push(`  ${cell(l.kind)} ${cell(l.path ?? l.what)}${l.runId ? ` (run ${cell(l.runId)})` : ""}`);
  }
  if (result.nextCommand) out.push("", `${p.dim("next")}  ${cell(result.nextCommand)}`);
  return out.join("\n") + "\n";
}
