/**
 * Whether Seatbelt may be used on this Mac: the first-use self-test (sandbox/backends/seatbelt_selftest.ts), run
 * once and remembered with everything its verdict rests on: the macOS version and build, the kernel
 * release, sandbox-exec's identity, the deno that runs the bridge, the uid, the probes' version and the
 * profile spot generates (a fingerprint of it for a fixed policy). Any change (a macOS update above all)
 * runs it again. Only a pass is remembered: a failure is tested again at the next use, and refuses until
 * then. Nothing here runs on Linux, where `auto` means bwrap.
 */
import { fromFileUrl, join } from "../base/path.ts";
import { quickHash, readCacheEntry, writeCacheEntry } from "../base/cache_dir.ts";
import { seatbeltArgv, seatbeltProfile } from "../sandbox/backends/seatbelt.ts";
import { realPathOrNull } from "../sandbox/host_paths.ts";
import { BRIDGE_PORT, DEFAULT_LIMITS, type SandboxPolicy } from "../sandbox/sandbox_policy.ts";
import { runSelfTest, type SelfTestRunner } from "../sandbox/backends/seatbelt_selftest.ts";
import { type SeatbeltVerdict, type SelfTestReport, verdictOf } from "../sandbox/backends/seatbelt_result.ts";
import { spawnProcess } from "../sandbox/spawn.ts";
import { which } from "../sandbox/which.ts";
import type { SpotContext } from "../store/context.ts";

/** Bump when a probe is added or changed: every Mac tests again. */
export const SELF_TEST_VERSION = 1;
/** The bridge the self-test runs, from spot's own checkout (as the launches take it). */
const BRIDGE_SCRIPT = import.meta.url.startsWith("file:")
  ? fromFileUrl(new URL("../sandbox/bridge.ts", import.meta.url))
  : "(spot has no local copy of sandbox/bridge.ts)";
/** sandbox-exec is taken from here only, never from PATH. */
const SANDBOX_EXEC_DIR = "/usr/bin";

/** What the verdict rests on here. */
export interface SeatbeltFacts {
  /** Absolute path of sandbox-exec, or null when it is missing. */
  sandboxExec: string | null;
  /** Shown to the user and recorded on the run: `macOS 14.5 (23F79), Darwin 23.5.0`. */
  osVersion: string;
  /** Everything the verdict rests on, as one string; null when a fact cannot be read (then nothing is kept). */
  key: string | null;
}

/** A policy with fixed paths: its profile's fingerprint changes exactly when the generator does. */
const TEMPLATE: SandboxPolicy = {
  cwd: "/w",
  readOnly: ["/r"],
  symlinks: [{ path: "/l", target: "/r" }],
  writable: ["/w"],
  protected: ["/w/.git"],
  binds: [],
  scratch: [{ path: "/tmp", sizeBytes: 1 }, { path: "/h", sizeBytes: 1 }],
  env: { HOME: "/h" },
  network: { mode: "forwarder", hostSocket: "/s", deno: "/d", bridgeScript: "/b" },
  limits: { ...DEFAULT_LIMITS, prlimit: null },
  shell: "/bin/sh",
};

export function profileFingerprint(): string {
  const options = { scratchRoot: "/x", inPlaceUnder: "/h" };
  return quickHash(
    seatbeltProfile(TEMPLATE, options) + seatbeltArgv("/e", TEMPLATE, ["c"], options).join("\0"),
  );
}

async function identity(path: string): Promise<string> {
  const s = await Deno.stat(path);
  return `${path}:${s.dev}:${s.ino}:${s.size}:${s.mtime?.getTime()}`;
}

/** The cache key of a verdict: the host's facts, the probes' version and the profile generator's fingerprint. */
export function factsKey(
  host: { osVersion: string; sandboxExec: string; deno: string; uid: number | null },
): string {
  const { osVersion, sandboxExec, deno, uid } = host;
  return [osVersion, sandboxExec, deno, String(uid), `self-test ${SELF_TEST_VERSION}`, profileFingerprint()]
    .join("\0");
}

/** The facts of this Mac, read now. */
export async function seatbeltFactsHere(): Promise<SeatbeltFacts> {
  const plist = await Deno.readTextFile("/System/Library/CoreServices/SystemVersion.plist").catch(() => "");
  const field = (name: string) =>
    plist.match(new RegExp(`<key>${name}</key>\\s*<string>([^<]*)</string>`))?.[1];
  const osVersion =
    `macOS ${field("ProductVersion") ?? "(unknown)"} (${field("ProductBuildVersion") ?? "?"}), ` +
    `Darwin ${Deno.osRelease()}`;
  const sandboxExec = which("sandbox-exec", SANDBOX_EXEC_DIR);
  if (!sandboxExec) return { sandboxExec, osVersion, key: null };
  try {
    const key = factsKey({
      osVersion,
      sandboxExec: await identity(sandboxExec),
      deno: `${await identity(Deno.execPath())} ${Deno.version.deno}`,
      uid: Deno.uid(),
    });
    return { sandboxExec, osVersion, key };
  } catch {
    return { sandboxExec, osVersion, key: null };
  }
}

interface Remembered {
  passed: true;
  osVersion: string;
  testedAt: string;
}

/** The verdict for `facts`: the remembered pass, or a self-test run now (`selfTest`, the seam tests use). */
export async function seatbeltVerdict(
  facts: SeatbeltFacts,
  options: {
    cacheDir: string;
    now: () => string;
    selfTest: (sandboxExec: string) => Promise<SelfTestReport>;
  },
): Promise<SeatbeltVerdict> {
  if (!facts.sandboxExec) {
    return {
      available: false,
      path: null,
      osVersion: facts.osVersion,
      testedAt: null,
      cached: false,
      failedProbe: null,
      reason: `sandbox-exec was not found in ${SANDBOX_EXEC_DIR}`,
    };
  }
  const known = facts.key === null ? null : readCacheEntry<Remembered>(options.cacheDir, facts.key);
  if (known?.passed === true) {
    return {
      available: true,
      path: facts.sandboxExec,
      osVersion: known.osVersion,
      testedAt: known.testedAt,
      cached: true,
      failedProbe: null,
      reason: null,
    };
  }
  const testedAt = options.now();
  const verdict = verdictOf(await options.selfTest(facts.sandboxExec), {
    path: facts.sandboxExec,
    osVersion: facts.osVersion,
    testedAt,
  });
  if (verdict.available && facts.key !== null) {
    await writeCacheEntry(options.cacheDir, facts.key, {
      passed: true,
      osVersion: facts.osVersion,
      testedAt,
    });
  }
  return verdict;
}

/** The runner of the self-test on a Mac: the command under the profile spot would generate, as it would run. */
export function seatbeltRunner(sandboxExec: string, labRoot: string): SelfTestRunner {
  const options = { scratchRoot: join(labRoot, "scratch"), inPlaceUnder: labRoot, realpath: realPathOrNull };
  return {
    run: (policy, argv, { timeoutMs }) =>
      spawnProcess(seatbeltArgv(sandboxExec, policy, argv, options), { env: {}, timeoutMs }),
  };
}

const memo = new Map<string, Promise<SeatbeltVerdict>>();

/** This Mac's verdict, once per process. */
export function seatbeltHere(ctx: SpotContext): Promise<SeatbeltVerdict> {
  const cacheDir = join(ctx.paths.cacheRoot, "seatbelt-selftest");
  let found = memo.get(cacheDir);
  if (!found) {
    found = seatbeltFactsHere().then((facts) =>
      seatbeltVerdict(facts, {
        cacheDir,
        now: ctx.now,
        selfTest: async (sandboxExec) => {
          // A short lab path: a unix socket's path is capped near 100 bytes.
          const labRoot = await Deno.makeTempDir({ prefix: "spot-sbt-" });
          return runSelfTest(seatbeltRunner(sandboxExec, labRoot), {
            labRoot,
            deno: Deno.execPath(),
            bridgeScript: BRIDGE_SCRIPT,
            shell: which("sh", "/bin:/usr/bin") ?? "/bin/sh",
            system: { readOnly: [], symlinks: [] },
            forwarderPort: BRIDGE_PORT,
          });
        },
      })
    );
    memo.set(cacheDir, found);
  }
  return found;
}
