/**
 * A contract whose check names a program spot cannot find would pass prepare, run the worker, and only fail
 * at verify. `prepare` refuses it at once (CHECK_NOT_FOUND) and `doctor --task` reports it, naming the program
 * and where it was looked for, with the resolution the checks themselves use (workspace/runner.ts).
 */
import { SpotError } from "../errors.ts";
import type { TaskContract } from "../schemas/task_contract.ts";
import { join } from "../base/path.ts";
import { realPathOrNull } from "../sandbox/host_paths.ts";
import { ECOSYSTEMS } from "../workspace/plan.ts";
import { missingCheckProgram, type MissingProgram } from "../workspace/runner.ts";
import { checkPath } from "./runner_guard.ts";

/** Every ecosystem's dependency dir (node_modules, .venv, ...): a PATH entry in one may be kept for the checks. */
const DEPENDENCY_DIRS = [...new Set(ECOSYSTEMS.flatMap((e) => e.dirs))];

/** One check whose program is not found. */
export interface MissingCheck extends MissingProgram {
  /** 1-based, as a person counts the contract's checks. */
  check: number;
  argv: string[];
}

export function missingChecks(
  task: Pick<TaskContract, "verification">,
  options: { cwd: string; env: (name: string) => string | undefined },
): MissingCheck[] {
  const { cwd, env } = options;
  // The PATH the checks will get: never a directory of the tree, but for the dependency dirs spot may show
  // there (which ones, the run decides after prepare: every ecosystem's dir counts here, so none is refused).
  const trees = [...new Set([cwd, realPathOrNull(cwd) ?? cwd])];
  const keep = DEPENDENCY_DIRS.flatMap((d) => trees.map((t) => join(t, d)));
  return task.verification.flatMap((v, i) => {
    const pathVar = checkPath(env("PATH") ?? "", { env: v.env, trees, keep });
    const missing = missingCheckProgram(v.argv[0], { cwd, pathVar, env });
    return missing ? [{ check: i + 1, argv: v.argv, ...missing }] : [];
  });
}

/** One line for a person: which check, which program, where spot looked. */
export function describeMissing(m: MissingCheck): string {
  const where = m.looked.length === 0 ? "PATH is empty" : `looked in ${m.looked.join(", ")}`;
  return `check ${m.check} (${m.argv.join(" ")}): "${m.program}" is not found (${where})`;
}

export const MISSING_FIX =
  "install it where spot's PATH finds it outside the repository, or name it by its " +
  "absolute path (checks get spot's PATH without the repository's own directories)";

/** Throws CHECK_NOT_FOUND, naming every check whose program is not found; nothing has been written yet. */
export function requireCheckPrograms(
  task: Pick<TaskContract, "verification">,
  options: { cwd: string; env: (name: string) => string | undefined },
): void {
  const missing = missingChecks(task, options);
  if (missing.length === 0) return;
  throw new SpotError(
    "CHECK_NOT_FOUND",
    // The fix is for the person reading the message, not only for a program reading the details.
    `Cannot run the contract's checks: ${missing.map(describeMissing).join("; ")}; ${MISSING_FIX}`,
    {
      details: { missing, fix: MISSING_FIX },
    },
  );
}
