/**
 * What the run's sandbox actually enforced, recorded from the policies that
 * ran. Pure: a step's enforcement in, the run's sandbox record out.
 */
import type { Enforcement, SandboxDetails, StepKind } from "../schemas/sandbox_record.ts";

/** Several policies of one step (one per check command): guaranteed only what all of them got. */
export function combine(list: Enforcement[]): Enforcement | null {
  if (list.length === 0) return null;
  return {
    backend: list[0].backend,
    enforced: list[0].enforced.filter((e) => list.every((l) => l.enforced.includes(e))),
    notEnforced: [...new Set(list.flatMap((l) => l.notEnforced))],
  };
}

/** The record after a step of `kind` ran under `enforcement`. */
export function withStepEnforcement(
  details: SandboxDetails | undefined,
  kind: StepKind,
  enforcement: Enforcement | null,
): SandboxDetails | undefined {
  if (!details || !enforcement) return details;
  const steps = { ...details.steps, [kind]: enforcement };
  const all = combine(Object.values(steps).filter((e): e is Enforcement => !!e))!;
  return { ...details, steps, enforced: all.enforced, notEnforced: all.notEnforced };
}
