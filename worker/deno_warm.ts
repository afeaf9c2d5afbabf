/**
 * Deno programs of spot's that run inside the OS sandbox (the replay worker, the network bridge) see Deno's
 * cache read-only: a program never compiled outside it is compiled again on every launch and its compiled
 * code never kept (~140 ms on each replay turn, measured in docs/performance.md). Before such a launch spot
 * compiles the program once outside the sandbox (`deno cache`), into the cache the sandbox shows, and leaves a
 * stamp named after Deno's version and the program's files, so later launches only look for the stamp.
 * A program whose files change gets a new stamp; a failed warm-up only costs the launch its speed.
 */
import { join } from "../base/path.ts";
import { sha256Hex } from "../git/hash.ts";
import { denoDir } from "../isolation/step_runner.ts";
import { spawnProcess } from "../sandbox/spawn.ts";
import type { DenoProgram } from "../adapters/types.ts";

/** Compiling a few small modules takes well under a second; past this the launch goes on without it. */
const WARM_TIMEOUT_MS = 60_000;

/** The stamp's name: Deno's version and each module's path, size and modification time. */
export async function warmKey(program: DenoProgram): Promise<string | null> {
  const files: [string, number, number][] = [];
  for (const path of [program.entry, ...program.modules]) {
    const info = await Deno.stat(path).catch(() => null);
    if (!info?.isFile) return null;
    files.push([path, info.size, info.mtime?.getTime() ?? 0]);
  }
  return await sha256Hex(JSON.stringify([Deno.version.deno, Deno.execPath(), files]));
}

/**
 * Compiles each program into the Deno cache the sandbox shows, unless its stamp says it was; true when every
 * program is (or already was) compiled. `env` is spot's environment (where the Deno cache is).
 */
export async function warmDenoPrograms(
  programs: DenoProgram[],
  options: { cacheRoot: string; env: (name: string) => string | undefined },
): Promise<boolean> {
  const results = await Promise.all(programs.map(async (program) => {
    const key = await warmKey(program);
    if (key === null) return false;
    const stamps = join(options.cacheRoot, "deno-warm");
    const stamp = join(stamps, key);
    if (await Deno.stat(stamp).then(() => true, () => false)) return true;
    const r = await spawnProcess(
      [Deno.execPath(), "cache", "--no-config", "--no-lock", "--quiet", program.entry],
      {
        env: { DENO_DIR: denoDir(options.env), PATH: options.env("PATH") ?? "/usr/bin:/bin", NO_COLOR: "1" },
        timeoutMs: WARM_TIMEOUT_MS,
      },
    );
    if (r.exitCode !== 0) return false;
    await Deno.mkdir(stamps, { recursive: true });
    await Deno.writeTextFile(stamp, `${program.entry}\n`);
    return true;
  }));
  return results.every(Boolean);
}
