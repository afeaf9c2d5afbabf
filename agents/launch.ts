/**
 * How an agent's driver is started: spot itself, run again with the hidden
 * `agent drive NAME` verb, detached from its caller through the one spawn
 * site. The driver is spot's own run driver, so the sandbox, the gates and
 * the events are a run's like any other.
 */
import { dirname, fromFileUrl, join } from "../base/path.ts";
import { spawnDetached } from "../sandbox/spawn.ts";
import { startTicks } from "../base/proc_table.ts";

/** The command line that runs spot again, however this spot was started. */
export function spotArgv(mainModule = Deno.mainModule, execPath = Deno.execPath()): string[] {
  if (!mainModule.startsWith("file:")) return [execPath];
  const main = fromFileUrl(mainModule);
  // A compiled spot is its own executable; from source (or an install), Deno runs the module again.
  if (/\bdeno_compile\b/.test(main)) return [execPath];
  const config = join(dirname(main), "deno.json");
  const withConfig = main.endsWith("cli.ts") ? ["--config", config] : [];
  return [execPath, "run", "--allow-all", "--no-prompt", ...withConfig, main];
}

export interface Started {
  pid: number;
  /** Clock ticks since boot at its start (Linux), to tell it from a later process with its pid. */
  procStart: number | null;
}

export { startTicks };

/** Starts the driver of agent `name`; null with the reason when it could not start. */
export function startDriver(
  name: string,
  options: { cwd: string; env: Record<string, string>; argv?: string[] },
): Started | { error: string } {
  const argv = [...(options.argv ?? spotArgv()), "agent", "drive", name];
  const started = spawnDetached(argv, { cwd: options.cwd, env: options.env });
  if (started.pid === null) return { error: started.spawnError ?? "unknown error" };
  return { pid: started.pid, procStart: startTicks(started.pid) };
}
