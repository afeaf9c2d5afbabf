/**
 * `spot sandbox` for a person: which sandbox a run would get here and why, what every step would be held to,
 * what worker turns and checks get besides, and what is not enforced. Pure: the verb's result in, text out;
 * `--json`, or a pipe, keeps the JSON.
 */
import { cell, paint } from "./style.ts";

type Json = Record<string, unknown>;
const obj = (v: unknown): Json => (typeof v === "object" && v !== null && !Array.isArray(v) ? v as Json : {});
const texts = (v: unknown): string[] => (Array.isArray(v) ? v.map(cell) : []);

/** The result of `sandbox` (verbs/sandbox.ts). */
export type SandboxResult = Json;

/** What one kind of step gets beyond what every step gets. */
function extra(step: Json, common: string[]): string[] {
  return texts(step.enforced).filter((e) => !common.includes(e));
}

export function renderSandbox(result: SandboxResult, options: { color?: boolean } = {}): string {
  const p = paint(options.color ?? false);
  const enforced = texts(result.enforced);
  const notEnforced = texts(result.notEnforced);
  const steps = obj(result.steps);
  const bwrap = obj(result.bwrap);
  const where = result.backend === "bwrap" && bwrap.path
    ? ` (${cell(bwrap.path)}${bwrap.version ? ` ${cell(bwrap.version)}` : ""})`
    : "";
  const title = result.optedOut === true
    ? p.yellow("none: no OS sandbox (opted out)")
    : p.green(`${cell(result.backend)}${where}`);
  const out = [`${p.bold("sandbox")}  ${title}, level ${cell(result.level)}`];
  if (result.reason) out.push(`  ${p.dim("why")}  ${cell(result.reason)}`);
  out.push("", p.bold("Enforced for every step"));
  for (const e of enforced) out.push(`  ${e}`);
  for (const [kind, label] of [["worker", "Worker turns also"], ["check", "Checks also"]] as const) {
    const more = extra(obj(steps[kind]), enforced);
    if (more.length) out.push("", p.bold(label), ...more.map((e) => `  ${e}`));
  }
  if (notEnforced.length) out.push("", p.bold("Not enforced"), ...notEnforced.map((n) => `  - ${n}`));
  return out.join("\n") + "\n";
}
