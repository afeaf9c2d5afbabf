/**
 * The bwrap probe's "usable", remembered across commands with everything that decides it: the
 * binaries' paths and identities (device, inode, size, mtime), the probe's own argv, the boot, the uid, the
 * namespaces and seccomp state spot runs in, and the kernel's user-namespace switches. Any change is a miss and
 * the probe runs again (two processes, 15 to 35 ms per verb here; docs/performance.md). Only a usable sandbox
 * is remembered, and only the verdict: the binary's path always comes from the fresh lookup, so an entry
 * planted by someone else can at most claim that the real bwrap works, which the launch then tests.
 */
import { readCacheEntry, writeCacheEntry } from "../base/cache_dir.ts";
import type { ProbeMemory } from "../sandbox/probe.ts";

const KERNEL_FILES = [
  "/proc/sys/kernel/random/boot_id",
  "/proc/sys/kernel/unprivileged_userns_clone",
  "/proc/sys/user/max_user_namespaces",
  "/proc/sys/kernel/apparmor_restrict_unprivileged_userns",
];
const NAMESPACES = ["user", "mnt", "pid", "net"];

async function identity(path: string): Promise<string> {
  const s = await Deno.stat(path);
  return `${path}:${s.dev}:${s.ino}:${s.size}:${s.mtime?.getTime()}`;
}

async function optionalText(path: string): Promise<string> {
  try {
    return (await Deno.readTextFile(path)).trim();
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return "-";
    throw error;
  }
}

/** The status lines that say what this process may do: seccomp mode, no_new_privs, capabilities. */
async function selfStatus(): Promise<string> {
  const status = await Deno.readTextFile("/proc/self/status");
  return status.split("\n").filter((l) => /^(Seccomp|NoNewPrivs|CapEff|CapBnd|Uid|Gid):/.test(l)).join("|");
}

/** The facts this probe's verdict rests on, here and now (the cache key), or null when a fact cannot be read (then nothing is cached). */
export async function probeKey(binaries: string[], probeArgv: string[]): Promise<string | null> {
  try {
    const facts = await Promise.all([
      ...binaries.map(identity),
      ...KERNEL_FILES.map(optionalText),
      ...NAMESPACES.map((ns) => Deno.readLink(`/proc/self/ns/${ns}`)),
      selfStatus(),
    ]);
    return [...facts, JSON.stringify(probeArgv)].join("\0");
  } catch {
    return null;
  }
}

export interface ProbeVerdict {
  usable: true;
  version: string | null;
}

/** The remembered verdict for `key`, if a usable sandbox was found under exactly these facts. */
export function rememberedUsable(dir: string, key: string): ProbeVerdict | null {
  const verdict = readCacheEntry<ProbeVerdict>(dir, key);
  return verdict?.usable === true ? { usable: true, version: verdict.version ?? null } : null;
}

/** Remembers a usable sandbox; a cache that cannot be written costs the next command a probe. */
export async function rememberUsable(dir: string, key: string, version: string | null): Promise<void> {
  await writeCacheEntry(dir, key, { usable: true, version });
}

/** The memory `probeBwrap` takes: verdicts kept in `dir`. */
export function probeMemory(dir: string): ProbeMemory {
  // A miss asks for the facts twice (recall, then keep after the probe): read them once.
  let last: { binaries: string; argv: string; facts: Promise<string | null> } | null = null;
  const factsOf = (binaries: string[], argv: string[]) => {
    const key = { binaries: binaries.join("\0"), argv: argv.join("\0") };
    if (last?.binaries !== key.binaries || last.argv !== key.argv) {
      last = { ...key, facts: probeKey(binaries, argv) };
    }
    return last.facts;
  };
  return {
    name: dir,
    recall: async (binaries, argv) => {
      const facts = await factsOf(binaries, argv);
      return facts === null ? null : rememberedUsable(dir, facts);
    },
    keep: async (binaries, argv, version) => {
      const facts = await factsOf(binaries, argv);
      if (facts !== null) await rememberUsable(dir, facts, version);
    },
  };
}
