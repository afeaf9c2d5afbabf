/**
 * The run's OS sandbox: decided once at prepare (recorded in state.json),
 * then re-checked before every worker turn and every check, so a sandbox
 * that disappears between commands stops the run instead of being skipped.
 * Linux: bwrap, probed. macOS: Seatbelt, after its first-use self-test passed
 * on that Mac at its OS version. The platform is reached through
 * `SandboxHost`, so tests decide for a Mac on Linux.
 */
import { join } from "../base/path.ts";
import { lazy } from "../base/lazy.ts";
import { SpotError } from "../errors.ts";
import type { RunState } from "../schemas/run_state.ts";
import {
  bwrapBackend,
  noneBackend,
  noneEnforcement,
  type SandboxBackend,
} from "../sandbox/backends/backend.ts";
import { type HostSandbox, parseChoice, resolveChoice } from "../sandbox/choose.ts";
import type { SeatbeltVerdict } from "../sandbox/backends/seatbelt_result.ts";
import { type BwrapProbe, probeBwrap } from "../sandbox/probe.ts";
import type { SandboxChoice, SandboxDetails, SandboxLevel } from "../schemas/sandbox_record.ts";
import { which } from "../sandbox/which.ts";
import { probeMemory } from "./probe_cache.ts";
import type { SpotContext } from "../store/context.ts";
import { pathExists } from "../store/files.ts";

/** Where the POSIX shell of the sandbox wrapper is looked up. */
const SYSTEM_PATH = "/usr/bin:/bin";

export interface RunSandbox {
  backend: SandboxBackend;
  probe: BwrapProbe | null;
  /** Absolute path of sh, for the in-sandbox wrapper. */
  shell: string;
}

export function probeHere(ctx: SpotContext): Promise<BwrapProbe> {
  return probeBwrap({
    pathVar: ctx.env("PATH") ?? "",
    override: ctx.env("PI_WORKER_BWRAP_BIN"),
    // A command that only looks keeps no verdict where spot has no cache dir yet (it makes none).
    memory: ctx.readOnly && !pathExists(ctx.paths.cacheRoot)
      ? undefined
      : probeMemory(join(ctx.paths.cacheRoot, "sandbox-probe")),
  });
}

/** The uid spot runs as, for the honest note about RLIMIT_NPROC; null where there is none (Windows). */
export function effectiveUid(): number | null {
  try {
    return Deno.uid();
  } catch {
    return null;
  }
}

function unavailable(message: string, fix: string, details: Record<string, unknown>): SpotError {
  return new SpotError("SANDBOX_UNAVAILABLE", `${message}; to fix: ${fix}`, { details: { ...details, fix } });
}

/** The platform and the tests of its sandbox; `hostHere` is the real one, tests pass another. */
export interface SandboxHost {
  os: string;
  bwrap(): Promise<BwrapProbe>;
  seatbelt(): Promise<SeatbeltVerdict>;
}

// The macOS modules (the profile writer, the self-test) load only where they are used, never on Linux.
const seatbeltVerdict = () =>
  lazy<typeof import("./seatbelt_verdict.ts")>("./seatbelt_verdict.ts", import.meta.url);
const seatbeltBackendModule = () =>
  lazy<typeof import("../sandbox/backends/seatbelt_backend.ts")>(
    "../sandbox/backends/seatbelt_backend.ts",
    import.meta.url,
  );

export function hostHere(ctx: SpotContext): SandboxHost {
  return {
    os: Deno.build.os,
    bwrap: () => probeHere(ctx),
    seatbelt: async () => (await seatbeltVerdict()).seatbeltHere(ctx),
  };
}

/** What `choice` is decided from here: only the test the platform and the choice call for is run. */
export async function hostSandbox(host: SandboxHost, choice: SandboxChoice): Promise<HostSandbox> {
  return {
    os: host.os,
    bwrap: choice !== "none" && host.os === "linux" ? await host.bwrap() : null,
    seatbelt: choice === "auto" && host.os === "darwin" ? await host.seatbelt() : null,
  };
}

/** Decides the sandbox at prepare; refuses with SANDBOX_UNAVAILABLE rather than run without one. */
export async function decideSandbox(
  ctx: SpotContext,
  options: { flag?: string; host?: SandboxHost },
): Promise<{ level: SandboxLevel; details: SandboxDetails }> {
  let choice: SandboxChoice = ctx.config.sandbox ?? "auto";
  const source = options.flag === undefined ? "config" : "flag";
  if (options.flag !== undefined) {
    const parsed = parseChoice(options.flag);
    if (!parsed) {
      throw new SpotError(
        "CLI_USAGE",
        `Cannot use --sandbox "${options.flag}": expected auto, bwrap or none`,
      );
    }
    choice = parsed;
  }
  const host = await hostSandbox(options.host ?? hostHere(ctx), choice);
  const probe = host.bwrap;
  const resolved = resolveChoice(choice, host);
  if (!resolved.ok) {
    throw unavailable(
      `Cannot sandbox the run (sandbox "${choice}" from the ${source}): ${resolved.reason}`,
      resolved.fix,
      {
        choice,
        source,
        reason: resolved.reason,
        ...(host.seatbelt
          ? { failedProbe: host.seatbelt.failedProbe, osVersion: host.seatbelt.osVersion }
          : {}),
      },
    );
  }
  // Without an OS sandbox nothing depends on a policy; under one, each step records what its policy got.
  const enforcement = resolved.backend === "none" ? noneEnforcement() : { enforced: [], notEnforced: [] };
  const seatbelt = resolved.backend === "seatbelt" && host.seatbelt?.path
    ? { path: host.seatbelt.path, osVersion: host.seatbelt.osVersion, testedAt: host.seatbelt.testedAt }
    : null;
  return {
    level: resolved.level,
    details: {
      choice,
      source,
      backend: resolved.backend,
      optedOut: resolved.backend === "none",
      bwrap: probe?.path ? { path: probe.path, version: probe.version } : null,
      ...(seatbelt ? { seatbelt } : {}),
      enforced: enforcement.enforced,
      notEnforced: enforcement.notEnforced,
      decidedAt: ctx.now(),
    },
  };
}

/** The run's Seatbelt backend, its self-test still passing on this Mac at this OS version. */
async function seatbeltForRun(ctx: SpotContext, state: RunState, host: SandboxHost): Promise<SandboxBackend> {
  if (host.os !== "darwin") {
    throw unavailable(
      `Cannot run "${state.runId}": it was prepared under Seatbelt, which runs only on macOS`,
      "prepare a new run here",
      { runId: state.runId, backend: "seatbelt" },
    );
  }
  const verdict = await host.seatbelt();
  if (!verdict.available || !verdict.path) {
    throw unavailable(
      `Cannot run "${state.runId}" in the Seatbelt sandbox it was prepared with: ${verdict.reason}`,
      "pass the self-test again (it reruns at each use until it passes), or prepare a new run with --sandbox none",
      {
        runId: state.runId,
        failedProbe: verdict.failedProbe,
        nextCommand: `spot recover --id ${state.runId}`,
      },
    );
  }
  const runDir = ctx.store.dir(state.runId);
  const { seatbeltBackend } = await seatbeltBackendModule();
  return seatbeltBackend(verdict.path, { scratchRoot: join(runDir, "seatbelt"), inPlaceUnder: runDir });
}

/** The backend recorded on the run, checked again now; never a different or weaker one. */
export async function sandboxForRun(
  ctx: SpotContext,
  state: RunState,
  options: { host?: SandboxHost } = {},
): Promise<RunSandbox> {
  const host = options.host ?? hostHere(ctx);
  const shell = which("sh", SYSTEM_PATH) ?? "/bin/sh";
  const recorded = state.sandboxDetails?.backend ??
    (await decideSandbox(ctx, { host })).details.backend;
  if (recorded === "none") return { backend: noneBackend, probe: null, shell };
  if (recorded === "seatbelt") return { backend: await seatbeltForRun(ctx, state, host), probe: null, shell };
  if (recorded !== "bwrap") {
    throw unavailable(
      `Cannot run "${state.runId}": its ${recorded} sandbox is not enabled in this build`,
      "prepare it again",
      {
        backend: recorded,
      },
    );
  }
  const probe = await host.bwrap();
  if (!probe.available || !probe.path) {
    const fix = resolveChoice("bwrap", { os: host.os, bwrap: probe, seatbelt: null });
    throw unavailable(
      `Cannot run "${state.runId}" in the bwrap sandbox it was prepared with: ${probe.reason}`,
      fix.ok
        ? ""
        : `${fix.fix.replace(/, or pass --sandbox none.*$/, "")}, or prepare a new run with --sandbox none`,
      { runId: state.runId, reason: probe.reason, nextCommand: `spot recover --id ${state.runId}` },
    );
  }
  return { backend: bwrapBackend(probe.path), probe, shell };
}
