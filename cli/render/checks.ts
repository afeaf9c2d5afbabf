/**
 * A list of named checks (doctor's, in its result or in its DOCTOR_FAILED error) as aligned lines: `ok`,
 * `warn` or `FAIL`, the check's name, what it found, and under a failed one how to fix it. Pure.
 */
import { cell, columns, type Paint } from "./style.ts";

type Json = Record<string, unknown>;
const obj = (v: unknown): Json => (typeof v === "object" && v !== null && !Array.isArray(v) ? v as Json : {});

export function checkLines(checks: readonly unknown[], p: Paint): string[] {
  const rows = checks.map(obj).map((c) => {
    const mark = c.ok === false ? "FAIL" : c.warn === true ? "warn" : "ok";
    return [mark, cell(c.name), cell(c.detail)];
  });
  const lines = columns(["", "CHECK", "FOUND"], rows, {
    bold: p.bold,
    paintCell: (i, t) => i === 0 ? (t === "FAIL" ? p.red(t) : t === "warn" ? p.yellow(t) : p.green(t)) : t,
  }).slice(1);
  const out: string[] = [];
  checks.map(obj).forEach((c, i) => {
    out.push(lines[i]);
    if (c.ok === false && c.fix) out.push(`      ${p.dim("fix:")} ${cell(c.fix)}`);
  });
  return out;
}
