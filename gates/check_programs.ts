/**
 * A contract whose check names a program spot cannot find would pass prepare, run the worker, and only fail
 * at verify. `prepare` refuses it at once (CHECK_NOT_FOUND) and `doctor --task` reports it, naming the program
 * and where it was looked for, with the resolution the checks themselves use (workspace/runner.ts).
 */
import { SpotError } from "../errors.ts";
import type { TaskContract } from "../schemas/task_contract.ts";
import { missingCheckProgram, type MissingProgram } from "../workspace/runner.ts";

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
  return task.verification.flatMap((v, i) => {
    const missing = missingCheckProgram(v.argv[0], options);
    return missing ? [{ check: i + 1, argv: v.argv, ...missing }] : [];
  });
}

/** One line for a person: which check, which program, where spot looked. */
export function describeMissing(m: MissingCheck): string {
  const where = m.looked.length === 0 ? "PATH is empty" : `looked in ${m.looked.join(", ")}`;
  return `check ${m.check} (${m.argv.join(" ")}): "${m.program}" is not found (${where})`;
}

export const MISSING_FIX = "install it where spot's PATH finds it, or name it by its absolute path " +
  "(checks get spot's own PATH)";

/** Throws CHECK_NOT_FOUND, naming every check whose program is not found; nothing has been written yet. */
export function requireCheckPrograms(
  task: Pick<TaskContract, "verification">,
  options: { cwd: string; env: (name: string) => string | undefined },
): void {
  const missing = missingChecks(task, options);
  if (missing.length === 0) return;
  throw new SpotError(
    "CHECK_NOT_FOUND",
    `Cannot run the contract's checks: ${missing.map(describeMissing).join("; ")}`,
    {
      details: { missing, fix: MISSING_FIX },
    },
  );
}
