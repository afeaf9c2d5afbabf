/**
 * `spot recover` for a person: where the run is now, whether anything was recovered and why, what a killed
 * command had left (removed), and the command that comes next. Pure: the verb's result in, text out; `--json`,
 * or a pipe, keeps the JSON.
 */
import { cell, paint, statusColor } from "./style.ts";

type Json = Record<string, unknown>;
const obj = (v: unknown): Json => (typeof v === "object" && v !== null && !Array.isArray(v) ? v as Json : {});
const list = (v: unknown): Json[] => (Array.isArray(v) ? v.map(obj) : []);

/** The result of `recover` (verbs/recover.ts). */
export type RecoverResult = Json;

export function renderRecover(result: RecoverResult, options: { color?: boolean } = {}): string {
  const p = paint(options.color ?? false);
  const recovered = result.recovered === true;
  const out = [
    `${p.bold(`run ${cell(result.runId)}`)}  ${statusColor(cell(result.status), p)}  ${
      recovered ? p.green("recovered") : p.dim("nothing to recover")
    }`,
    `  ${p.dim("why ")}  ${cell(result.reason)}`,
  ];
  const reclaimed = list(result.reclaimed);
  for (const r of reclaimed) out.push(`  ${p.dim("removed")}  ${cell(r.kind)} ${cell(r.path ?? r.what)}`);
  out.push(
    `  ${p.dim("next")}  ${result.nextCommand ? cell(result.nextCommand) : "nothing: the run has ended"}`,
  );
  return out.join("\n") + "\n";
}
