/** doctor's line for each contract check whose program is not found: what prepare refuses as CHECK_NOT_FOUND. */
import { describeMissing, MISSING_FIX, missingChecks } from "../gates/check_programs.ts";
import type { TaskContract } from "../schemas/task_contract.ts";
import type { Check } from "./check.ts";

export function checkProgramChecks(
  task: Pick<TaskContract, "verification">,
  options: { cwd: string; env: (name: string) => string | undefined },
): Check[] {
  const missing = missingChecks(task, options);
  if (missing.length === 0) {
    const detail =
      "every program named by PATH or by absolute path is found (paths inside the tree: at verify)";
    return [{ name: "check programs", ok: true, detail }];
  }
  return missing.map((m) => ({
    name: "check program",
    ok: false,
    code: "CHECK_NOT_FOUND",
    detail: describeMissing(m),
    fix: MISSING_FIX,
  }));
}
