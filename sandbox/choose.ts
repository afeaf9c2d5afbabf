/**
 * Which backend a run gets, decided from the user's choice, the platform and
 * the probe, as a pure function. There is no silent fallback: a choice that
 * cannot be honoured is an error that says how to fix it or opt out.
 */
import type { BwrapProbe } from "./probe.ts";
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

/** The backend for `choice` on `os`; `probe` is the bwrap probe (null where it was not run). */
export function resolveChoice(choice: SandboxChoice, os: string, probe: BwrapProbe | null): Resolution {
  if (choice === "none") return { ok: true, backend: "none", level: "deno-permissions" };
  if (os !== "linux") {
    const what = choice === "bwrap"
      ? "bwrap runs only on Linux"
      : `spot has no working OS sandbox on ${os} yet` +
        (os === "darwin" ? " (the Seatbelt profile is generated and tested but not enabled)" : "");
    return { ok: false, reason: what, fix: `run on Linux with bubblewrap, ${OPT_OUT}` };
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
