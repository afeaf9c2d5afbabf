/**
 * What the Seatbelt self-test found, and the verdict `auto` decides from on macOS. Pure data and one pure
 * function; the probes are in seatbelt_selftest.ts, the memory of a pass in isolation/seatbelt_verdict.ts.
 */

export interface ProbeOutcome {
  id: string;
  /** `control`: must succeed; `contained`: the attack must fail. */
  kind: "control" | "contained";
  ok: boolean;
  /** What was seen, from the host. */
  detail: string;
}

export interface SelfTestReport {
  passed: boolean;
  /** The probes that did not hold, in the order they ran; the first is the one a refusal names. */
  failed: ProbeOutcome[];
  outcomes: ProbeOutcome[];
}

/** What `auto` decides from on macOS: whether Seatbelt passed its self-test on this Mac, at this OS version. */
export interface SeatbeltVerdict {
  available: boolean;
  /** Absolute path of sandbox-exec, when there is one. */
  path: string | null;
  /** The OS version the self-test ran on (or would run on). */
  osVersion: string;
  /** When the self-test that decided this ran. */
  testedAt: string | null;
  /** True when the verdict came from the cache, not a run now. */
  cached: boolean;
  /** The first probe that did not hold, by id (`write:outside`), or null. */
  failedProbe: string | null;
  /** Why it is not usable, in a form a user can act on. */
  reason: string | null;
}

/** The verdict a self-test report gives. */
export function verdictOf(
  report: SelfTestReport,
  facts: { path: string; osVersion: string; testedAt: string },
): SeatbeltVerdict {
  const first = report.failed[0];
  return {
    available: report.passed,
    path: facts.path,
    osVersion: facts.osVersion,
    testedAt: facts.testedAt,
    cached: false,
    failedProbe: first?.id ?? null,
    reason: first
      ? `Seatbelt failed its self-test on ${facts.osVersion}: ${first.id}: ${first.detail}` +
        (report.failed.length > 1 ? ` (and ${report.failed.slice(1).map((f) => f.id).join(", ")})` : "")
      : null,
  };
}
