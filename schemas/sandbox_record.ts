/**
 * What a run records about its containment (`state.json` → `sandbox`,
 * `sandboxDetails`; `steps.jsonl` → `sandbox`, `enforcement`). The sandbox
 * code produces these; everything else only reads them.
 */

/** Which containment a run had; recorded on every run. */
export type SandboxLevel = "none" | "deno-permissions" | "os";

/**
 * The user's setting: `auto` means bwrap on Linux when it works, Seatbelt on macOS when its first-use
 * self-test passed on that Mac, else refuse.
 */
export type SandboxChoice = "auto" | "bwrap" | "none";

/** The backends spot knows; `seatbelt` runs only on macOS, after its self-test passed there. */
export type BackendName = "bwrap" | "none" | "seatbelt";

/** The kinds of step a run sandboxes, each from its own policy. */
export type StepKind = "worker" | "self-review" | "check" | "setup";

/** What a backend enforced around one policy. */
export interface Enforcement {
  backend: BackendName;
  /** Short names of the guarantees this policy got. */
  enforced: string[];
  /** Guarantees it did not get, each with the reason. */
  notEnforced: string[];
}

/** What state.json records about the sandbox. */
export interface SandboxDetails {
  /** What was asked for. */
  choice: SandboxChoice;
  /** Where the choice came from. */
  source: "flag" | "config";
  backend: BackendName;
  /** True when the run has no OS sandbox because the user said so. */
  optedOut: boolean;
  bwrap: { path: string; version: string | null } | null;
  /** Under Seatbelt: sandbox-exec, and the OS version its self-test passed on, and when. */
  seatbelt?: { path: string; osVersion: string; testedAt: string | null };
  /**
   * Guarantees every step that ran so far got (empty until one ran, except
   * for `none`, whose answer depends on no policy).
   */
  enforced: string[];
  /** Guarantees any step that ran so far did not get, with the reason. */
  notEnforced: string[];
  /** Per kind of step, what the policy that last ran enforced. */
  steps?: Partial<Record<StepKind, Enforcement>>;
  decidedAt: string;
}
