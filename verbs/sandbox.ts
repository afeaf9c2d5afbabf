/**
 * `spot sandbox`: which OS sandbox a run would get here, why, and what it would enforce and not. It refuses
 * (SANDBOX_UNAVAILABLE, exit 4) exactly when `prepare` would.
 *
 * What a run would be held to is known before there is one: the policies of a worker turn (the provider
 * reached through the forwarder) and of a check (no network) are built by the one policy builder from this
 * host's facts, and the backend says what each enforces, exactly as a run records them in
 * `sandboxDetails.steps`, combined into `enforced` and `notEnforced` the same way.
 */
import { join } from "../base/path.ts";
import { bwrapBackend, noneEnforcement } from "../sandbox/backends/backend.ts";
import { seatbeltBackend } from "../sandbox/backends/seatbelt_backend.ts";
import type { BwrapProbe } from "../sandbox/probe.ts";
import type { Enforcement, SandboxDetails } from "../schemas/sandbox_record.ts";
import type { SpotContext } from "../store/context.ts";
import { combine } from "../isolation/enforcement.ts";
import { type CwdFacts, hostFacts } from "../isolation/host_facts.ts";
import { decideSandbox, effectiveUid, probeHere, type RunSandbox } from "../isolation/run_sandbox.ts";
import { buildStepPolicy, type StepRequest } from "../isolation/step_policy.ts";

interface SandboxPreview {
  /** Per kind of step, what its policy would enforce here. */
  steps: { worker: Enforcement; check: Enforcement };
  /** What every step would get, and what any of them would not (the run's `enforced` / `notEnforced`). */
  enforced: string[];
  notEnforced: string[];
}

/** A worktree with no git metadata or locked files: only the lists matter, not the paths. */
const NO_CWD_FACTS: CwdFacts = { dotGit: null, gitView: null, locked: [] };

function sandboxOf(details: SandboxDetails, probe: BwrapProbe | null, ctx: SpotContext): RunSandbox | null {
  if (details.backend === "bwrap" && details.bwrap?.path) {
    return { backend: bwrapBackend(details.bwrap.path), probe, shell: "/bin/sh" };
  }
  if (details.backend === "seatbelt" && details.seatbelt?.path) {
    const scratch = join(ctx.paths.cacheRoot, "sandbox-preview");
    const backend = seatbeltBackend(details.seatbelt.path, { scratchRoot: scratch, inPlaceUnder: scratch });
    return { backend, probe: null, shell: "/bin/sh" };
  }
  return null;
}

function previewSandbox(
  ctx: SpotContext,
  details: SandboxDetails,
  probe: BwrapProbe | null,
): SandboxPreview {
  const box = sandboxOf(details, probe, ctx);
  if (!box) {
    const none = noneEnforcement();
    return { steps: { worker: none, check: none }, enforced: none.enforced, notEnforced: none.notEnforced };
  }
  const host = hostFacts(ctx, box, ctx.cwd);
  const base = { cwd: ctx.cwd, tools: [], env: {} };
  const worker: StepRequest = {
    ...base,
    kind: "worker",
    // A worker's private HOME is a tmpfs at the turn's home under its run directory.
    home: { path: join(ctx.paths.runsDir, "<run>", "homes", "<turn>") },
    // The channel's socket and bridge are named, never opened: only the shape of the network counts.
    network: { mode: "forwarder", hostSocket: "(preview)", deno: host.deno, bridgeScript: host.bridgeScript },
  };
  const check: StepRequest = {
    ...base,
    kind: "check",
    home: { path: "/home/spot-check" },
    network: { mode: "none" },
  };
  const facts = { uid: effectiveUid() };
  const steps = {
    worker: box.backend.enforcement(buildStepPolicy(worker, host, NO_CWD_FACTS), facts),
    check: box.backend.enforcement(buildStepPolicy(check, host, NO_CWD_FACTS), facts),
  };
  const all = combine([steps.worker, steps.check])!;
  return { steps, enforced: all.enforced, notEnforced: all.notEnforced };
}

/** Why this backend, in a sentence a person reads. */
function reasonFor(details: SandboxDetails): string {
  const from = `"${details.choice}" from the ${details.source === "flag" ? "--sandbox flag" : "config"}`;
  if (details.backend === "none") {
    return `${from}: no OS sandbox, by the user's choice; the worker and the checks run with the user's rights, and the run records that it opted out`;
  }
  if (details.backend === "bwrap") {
    const where = details.bwrap
      ? `bubblewrap ${details.bwrap.version ?? ""} at ${details.bwrap.path}`.replace("  ", " ")
      : "bubblewrap";
    const how = details.choice === "auto"
      ? "auto takes bubblewrap on Linux when its probe passes, and it passed"
      : "its probe passed";
    return `${from}: ${where}; ${how}`;
  }
  const mac = details.seatbelt?.osVersion ? ` (macOS ${details.seatbelt.osVersion})` : "";
  return `${from}: Seatbelt (sandbox-exec); its self-test passed on this Mac${mac}`;
}

export async function describeSandbox(ctx: SpotContext, options: { sandbox?: string }) {
  const probe = Deno.build.os === "linux" ? await probeHere(ctx) : null;
  const { level, details } = await decideSandbox(ctx, { flag: options.sandbox });
  const preview = previewSandbox(ctx, details, probe);
  return {
    level,
    ...details,
    reason: reasonFor(details),
    enforced: preview.enforced,
    notEnforced: preview.notEnforced,
    steps: preview.steps,
    probe: probe && { available: probe.available, reason: probe.reason, prlimit: probe.prlimit },
  };
}
