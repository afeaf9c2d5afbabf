/**
 * `spot doctor` for a person: whether a run can start here, with which worker and why, then each check with
 * what it found (and, for a failed one, its fix). Pure: the verb's result in, text out; `--json`, or a pipe,
 * keeps the JSON.
 */
import { checkLines } from "./checks.ts";
import { cell, paint, statusColor } from "./style.ts";

type Json = Record<string, unknown>;
const obj = (v: unknown): Json => (typeof v === "object" && v !== null && !Array.isArray(v) ? v as Json : {});
const list = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);

/** The result of `doctor` (doctor/doctor.ts); read loosely, every part may be missing. */
export type DoctorResult = Json;

function routingLine(r: Json): string | null {
  if (!r.profile) return null;
  const difficulty = r.difficulty ? `difficulty ${cell(r.difficulty)} (${cell(r.difficultySource)})` : null;
  const tier = r.targetTier ? `tier ${cell(r.targetTier)}` : null;
  const why = r.matchReason ? cell(r.matchReason) : null;
  return [difficulty, tier, why].filter(Boolean).join(", ") || null;
}

function dependenciesLine(d: Json): string | null {
  const ecosystems = list(d.ecosystems).map(cell);
  if (!Object.keys(d).length) return null;
  if (!ecosystems.length) return "none needed";
  const setup = obj(d.setup);
  return `${ecosystems.join(", ")}${setup.command ? `; setup: ${cell(setup.command)}` : ""}`;
}

export function renderDoctor(result: DoctorResult, options: { color?: boolean } = {}): string {
  const p = paint(options.color ?? false);
  const status = cell(result.status);
  const rows: [string, string | null][] = [];
  const add = (label: string, value: string | null) => value && rows.push([label, value]);
  if (result.profile) {
    add(
      "worker",
      `${cell(result.profile)} (from ${cell(result.profileSource)}): ${cell(result.adapter)} CLI, ${
        cell(result.provider)
      } ${cell(result.model)}`,
    );
  }
  add("routing", routingLine(obj(result.routing)));
  const chain = list(result.fallbackChain).map(cell);
  if (result.profile) add("fallback", chain.length ? chain.join(" → ") : "none");
  add("deps", dependenciesLine(obj(result.dependencies)));
  if (typeof result.reason === "string") add("why", cell(result.reason));
  if (typeof result.nextCommand === "string") add("next", cell(result.nextCommand));
  const width = Math.max(0, ...rows.map(([label]) => label.length));
  const checks = list(result.checks);
  return [
    `${p.bold("doctor")}  ${statusColor(status, p)}`,
    ...rows.map(([label, value]) => `  ${p.dim(label.padEnd(width))}  ${value}`),
    ...(checks.length ? ["", ...checkLines(checks, p).map((l) => `  ${l}`)] : []),
    "",
  ].join("\n");
}
