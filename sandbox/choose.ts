/**
 * Which backend a run gets, decided from the user's choice, the platform and
 * the test of its sandbox (the bwrap probe, the Seatbelt self-test), as a pure function. There is no silent fallback: a choice that
 * cannot be honoured is an error that says how to fix it or opt out.
 */
import type { BwrapProbe } from "./probe.ts";
import type { SeatbeltVerdict } from "./backends/seatbelt_result.ts";
import type { BackendName, SandboxChoice, SandboxLevel } from "../schemas/sandbox_record.ts";

export type Resolution =
  | { ok: true; backend: BackendName; level: SandboxLevel }
  | { ok: false; reason: string; fix: string };

const OPT_OUT =
  'or pass --sandbox none (or set "sandbox": "none" in the config) to run without an OS sandbox';

function bwrapFix(probe: BwrapProbe): string {
  if (!probe.path) return `install bubblewrap (Debian/Ubuntu: apt-get install bubblewrap), ${OPT_OUT}`;
  return "allow unprivileged user namespaces (sysctl kernel.unprivileged_userns_clone=1, or on Ubuntu " +
    `kernel.apparmor_restrict_unprivileged_userns=0 or an AppArmor profile for bwrap), ${OPT_OUT}`;
}

function seatbeltFix(verdict: SeatbeltVerdict): string {
  if (!verdict.path) return `sandbox-exec is missing from /usr/bin (it ships with macOS), ${OPT_OUT}`;
  return "spot will run the self-test again when macOS is updated; report the failed probe to spot's " +
    `maintainers with \`spot sandbox --json\`, ${OPT_OUT}`;
}

/** What the choice is decided from: the platform, and the test of its sandbox (null where none was run). */
export interface HostSandbox {
  os: string;
  /** The bwrap probe (Linux). */
  bwrap: BwrapProbe | null;
  /** The Seatbelt self-test's verdict (macOS, for `auto`). */
  seatbelt: SeatbeltVerdict | null;
}

/**
 * The backend for `choice` here. On Linux `auto` and `bwrap` take bwrap when its probe passed; on macOS
 * `auto` takes Seatbelt only when its self-test passed on this Mac at this OS version; anything else refuses.
 */
export function resolveChoice(choice: SandboxChoice, host: HostSandbox): Resolution {
  if (choice === "none") return { ok: true, backend: "none", level: "deno-permissions" };
  const { os, bwrap: probe, seatbelt } = host;
  if (os === "darwin" && choice === "auto") {
    if (!seatbelt) return { ok: false, reason: "Seatbelt was not tested here", fix: OPT_OUT };
    if (!seatbelt.available) {
      return { ok: false, reason: seatbelt.reason ?? "Seatbelt is not usable", fix: seatbeltFix(seatbelt) };
    }
    return { ok: true, backend: "seatbelt", level: "os" };
  }
  if (os !== "linux") {
    const what = choice === "bwrap"
      ? "bwrap runs only on Linux"
      : `spot has no working OS sandbox on ${os} yet`;
    const fix = os === "darwin"
      ? `use --sandbox auto (Seatbelt), ${OPT_OUT}`
      : `run on Linux with bubblewrap, ${OPT_OUT}`;
    return { ok: false, reason: what, fix };
  }
  if (!probe) return { ok: false, reason: "bwrap was not probed", fix: OPT_OUT };
  if (!probe.available) {
    return { ok: false, reason: probe.reason ?? "bwrap is not usable", fix: bwrapFix(probe) };
  }
  return { ok: true, backend: "bwrap", level: "os" };
}

/** Reads a `--sandbox` value; null when it is not one of the choices. */
export function parseChoice(value: string): SandboxChoice | null {
  return value === "auto" || value === "bwrap" || value === "none" ? value : null;
}
