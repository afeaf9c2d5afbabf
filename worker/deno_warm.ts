/**
 * Deno programs of spot's that run inside the OS sandbox at their own path (the replay worker) see Deno's
 * cache read-only: a program never compiled outside it is compiled again on every launch and its compiled
 * code never kept (~140 ms on each replay turn, measured in docs/performance.md). Before such a launch spot
 * compiles the program once outside the sandbox (`deno cache`), into the cache the sandbox shows, and leaves a
 * stamp holding Deno's version and the program's files (base/cache_dir.ts), so later launches only read it.
 * A program whose files change gets a new stamp; a failed warm-up only costs the launch its speed.
 */
import { join } from "../base/path.ts";
import { readCacheEntry, writeCacheEntry } from "../base/cache_dir.ts";
import { denoDir } from "../isolation/step_runner.ts";
import { spawnProcess } from "../sandbox/spawn.ts";
import type { DenoProgram } from "../adapters/types.ts";

/** Compiling a few small modules takes well under a second; past this the launch goes on without it. */
const WARM_TIMEOUT_MS = 60_000;

/** What a stamp stands for: Deno (version and binary) and each module's path, size and modification time. */
export async function warmInputs(program: DenoProgram): Promise<string | null> {
  const files: [string, number, number][] = [];
  for (const path of [program.entry, ...program.modules]) {
    const info = await Deno.stat(path).catch(() => null);
    if (!info?.isFile) return null;
    files.push([path, info.size, info.mtime?.getTime() ?? 0]);
  }
  return JSON.stringify([Deno.version.deno, Deno.execPath(), files]);
}

/**
 * Compiles each program into the Deno cache the sandbox shows, unless its stamp says it was; true when every
 * program is (or already was) compiled. `env` is spot's environment (where the Deno cache is).
 */
export async function warmDenoPrograms(
  programs: DenoProgram[],
  options: { cacheRoot: string; env: (name: string) => string | undefined },
): Promise<boolean> {
  const stamps = join(options.cacheRoot, "deno-warm");
  const results = await Promise.all(programs.map(async (program) => {
    const inputs = await warmInputs(program);
    if (inputs === null) return false;
    if (readCacheEntry(stamps, inputs) !== null) return true;
    const r = await spawnProcess(
      [Deno.execPath(), "cache", "--no-config", "--no-lock", "--quiet", program.entry],
      {
        env: { DENO_DIR: denoDir(options.env), PATH: options.env("PATH") ?? "/usr/bin:/bin", NO_COLOR: "1" },
        timeoutMs: WARM_TIMEOUT_MS,
      },
    );
    if (r.exitCode !== 0) return false;
    await writeCacheEntry(stamps, inputs, { entry: program.entry });
    return true;
  }));
  return results.every(Boolean);
}
