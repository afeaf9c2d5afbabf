/**
 * An error for a person at a terminal: the code and exit code, the message with each of its lines on a line
 * of its own (a contract's `file:line:col path: message` problems), then what to do: the hint, the fix, the
 * next command, the commands that still work, a doctor's failed checks. Piped, or with `--json`, the error is
 * the one JSON object it always was (cli/output.ts). Pure: the error's JSON in, text out.
 */
import { checkLines } from "./checks.ts";
import { cell, paint, safeLine } from "./style.ts";

export { colorWanted } from "./style.ts";

export interface ErrorJson {
  code: string;
  message: string;
  details?: Record<string, unknown>;
}

/** Detail keys shown as a line of their own, in this order, with their label. */
const LINES: [string, string][] = [
  ["hint", "hint"],
  ["fix", "fix"],
  ["reason", "why"],
  ["nextCommand", "next"],
];

/** Details shown above, or said by the message itself: nothing more to see in the JSON when only these are. */
const SHOWN = new Set([
  ...LINES.map(([k]) => k),
  "commands",
  "checks",
  "runId",
  "status",
  "allowed",
  "ended",
]);

const isText = (v: unknown): v is string | number => typeof v === "string" || typeof v === "number";

export function renderError(
  error: ErrorJson,
  options: { exitCode?: number; color?: boolean } = {},
): string {
  const p = paint(options.color ?? false);
  const details = error.details ?? {};
  const [first, ...rest] = error.message.split("\n").map(safeLine);
  const exit = options.exitCode === undefined ? "" : p.dim(` (exit ${options.exitCode})`);
  const out = [`${p.red(p.bold(`spot: ${cell(error.code)}`))}${exit}: ${first}`];
  for (const line of rest) if (line.trim()) out.push(`  ${line}`);
  const commands = Array.isArray(details.commands) ? details.commands.filter(isText) : [];
  for (const [key, label] of LINES) {
    const value = details[key];
    if (!isText(value) || error.message.includes(String(value))) continue;
    // A hint that only lists the commands below says nothing they do not.
    if (commands.length && commands.every((c) => String(value).includes(String(c)))) continue;
    out.push(`  ${p.dim(label)}  ${cell(value)}`);
  }
  if (commands.length) {
    out.push(`  ${p.dim("what still works")}`);
    for (const c of commands) out.push(`    ${cell(c)}`);
  }
  if (Array.isArray(details.checks)) out.push(...checkLines(details.checks, p).map((l) => `  ${l}`));
  if (Object.keys(details).some((k) => !SHOWN.has(k))) {
    out.push(p.dim("  (piped, spot prints this error as one JSON object with every detail)"));
  }
  return out.join("\n") + "\n";
}
