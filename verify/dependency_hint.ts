/**
 * A check that failed because a dependency was not there gets a hint saying
 * which dependency dirs the trees had and the three ways to provide one.
 * Pure: the check's output and the run's dependency record in, a sentence out.
 */
import type { DependencyRecord } from "../schemas/dependency_record.ts";

const MISSING: { pattern: RegExp; dir: string }[] = [
  { pattern: /Cannot find (?:module|package) '([^']+)'/, dir: "node_modules" },
  { pattern: /ERR_MODULE_NOT_FOUND[^\n]*?'([^']+)'/, dir: "node_modules" },
  {
    pattern: /(?:^|\n)(?:sh: \d+: |\/bin\/sh: )?([\w.-]+): (?:command )?not found/,
    dir: "node_modules/.bin",
  },
  { pattern: /ModuleNotFoundError: No module named '([^']+)'/, dir: ".venv" },
  { pattern: /No module named ([\w.]+)/, dir: ".venv" },
];

export function dependencyHint(output: string, record: DependencyRecord | undefined): string | null {
  const hit = MISSING.map((m) => ({ ...m, match: output.match(m.pattern) })).find((m) => m.match);
  if (!hit) return null;
  const had = record?.dirs.length ? record.dirs.map((d) => d.path).join(", ") : "none";
  const why = record?.ecosystems.map((e) => `${e.ecosystem}: ${e.source}, ${e.reason}`).join("; ");
  return `The check could not find "${hit.match![1]}", which usually lives in ${hit.dir}. ` +
    `The trees had these dependency dirs: ${had}${why ? ` (${why})` : ""}. Provide them one of three ways: ` +
    `reuse (install them in the source checkout from the lockfile at the base revision), ` +
    `setup (let spot install them from that lockfile, or set dependencies.setup in the config), ` +
    `or .worktreeinclude (list ignored files to copy from the source checkout into every tree)`;
}
