/**
 * Is bubblewrap usable here? Finding the binary is not enough (user
 * namespaces can be blocked by a sysctl, AppArmor or a container), so the
 * probe runs the real recipe around `true` and reports why it failed.
 */
import { bwrapArgv } from "./backends/bwrap.ts";
import { systemView } from "./host_paths.ts";
import { DEFAULT_LIMITS, type SandboxPolicy } from "./sandbox_policy.ts";
import { spawnProcess } from "./spawn.ts";
import { which } from "./which.ts";

/** System places to look when PATH is bare; bwrap is never taken from a relative PATH entry. */
const SYSTEM_PATH = "/usr/bin:/bin:/usr/sbin:/sbin";
/** A healthy bwrap starts in ~15 ms; a hung namespace setup should not hold a prepare for long. */
const PROBE_TIMEOUT_MS = 10_000;

export interface BwrapProbe {
  available: boolean;
  /** Absolute path of the binary that was tried, when one was found. */
  path: string | null;
  version: string | null;
  /** Why it is not usable, in a form a user can act on. */
  reason: string | null;
  /** Absolute path of prlimit (util-linux), which the sandbox uses for rlimits. */
  prlimit: string | null;
}

/** Remembers that bwrap worked for exactly these binaries and this probe argv, here. */
export interface ProbeMemory {
  /** A stable name for the memory, part of the per-process cache key. */
  name: string;
  recall(binaries: string[], argv: string[]): Promise<{ version: string | null } | null>;
  keep(binaries: string[], argv: string[], version: string | null): Promise<void>;
}

export interface ProbeOptions {
  /** The PATH to search. */
  pathVar: string;
  /** A memory of usable verdicts across commands (isolation/probe_cache.ts); none: always probe. */
  memory?: ProbeMemory;
  /** An explicit binary (PI_WORKER_BWRAP_BIN), used instead of the PATH lookup. */
  override?: string;
}

const cache = new Map<string, Promise<BwrapProbe>>();

/** The minimal policy the probe runs: system dirs, a private /tmp, no network, the real limits. */
export function probePolicy(prlimit: string | null, shell: string): SandboxPolicy {
  const view = systemView();
  return {
    cwd: "/tmp",
    readOnly: view.readOnly,
    symlinks: view.symlinks,
    writable: [],
    protected: [],
    binds: [],
    scratch: [{ path: "/tmp", sizeBytes: 1024 * 1024 }],
    env: { PATH: SYSTEM_PATH },
    network: { mode: "none" },
    limits: { ...DEFAULT_LIMITS, prlimit },
    shell,
  };
}

async function probe(options: ProbeOptions): Promise<BwrapProbe> {
  const search = `${options.pathVar}:${SYSTEM_PATH}`;
  const prlimit = which("prlimit", search);
  const path = options.override !== undefined ? which(options.override, "") : which("bwrap", search);
  const unusable = (reason: string, version: string | null = null): BwrapProbe => ({
    available: false,
    path,
    version,
    reason,
    prlimit,
  });
  if (!path) {
    return unusable(
      options.override !== undefined
        ? `"${options.override}" is not an executable file`
        : "bwrap was not found on PATH (Debian/Ubuntu: apt-get install bubblewrap)",
    );
  }
  const trueBin = which("true", SYSTEM_PATH);
  const shell = which("sh", SYSTEM_PATH);
  if (!trueBin || !shell) return unusable("no /bin/true or /bin/sh to test the sandbox with");
  const env = { PATH: SYSTEM_PATH };
  const argv = bwrapArgv(path, probePolicy(prlimit, shell), [trueBin]);
  const binaries = [path, trueBin, shell, ...(prlimit ? [prlimit] : [])];
  const known = await options.memory?.recall(binaries, argv);
  if (known) return { available: true, path, version: known.version, reason: null, prlimit };
  const versionRun = await spawnProcess([path, "--version"], { env, timeoutMs: PROBE_TIMEOUT_MS });
  const version = versionRun.exitCode === 0 ? versionRun.stdout.trim().replace(/^bubblewrap\s+/, "") : null;
  const run = await spawnProcess(argv, { env, timeoutMs: PROBE_TIMEOUT_MS });
  if (run.exitCode === 0) {
    await options.memory?.keep(binaries, argv, version);
    return { available: true, path, version, reason: null, prlimit };
  }
  const detail = run.spawnError ?? (run.stderr.trim().split("\n")[0] || `exit ${run.exitCode ?? run.signal}`);
  return unusable(`bwrap ${version ?? "(unknown version)"} cannot create a sandbox here: ${detail}`, version);
}

/** Probes once per binary per process; the answer cannot change while a command runs. */
export function probeBwrap(options: ProbeOptions): Promise<BwrapProbe> {
  const key = `${options.override ?? ""}\0${options.pathVar}\0${options.memory?.name ?? ""}`;
  let found = cache.get(key);
  if (!found) {
    found = probe(options);
    cache.set(key, found);
  }
  return found;
}
