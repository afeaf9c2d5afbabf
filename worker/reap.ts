/**
 * Ends what a worker launch left behind outside its process group (a child
 * that called setsid, a daemonized server). Every launch has a private HOME,
 * so its processes are found by that value in their environment. Linux only:
 * elsewhere there is no /proc to read and the group kill is all there is.
 */

function read(path: string): string | null {
  try {
    return Deno.readTextFileSync(path);
  } catch {
    return null;
  }
}

/** Pids whose environment has HOME set to `homeDir`. */
export function launchProcesses(homeDir: string): number[] {
  const marker = `HOME=${homeDir}`;
  const found: number[] = [];
  let entries: Iterable<Deno.DirEntry>;
  try {
    entries = Deno.readDirSync("/proc");
  } catch {
    return found;
  }
  for (const entry of entries) {
    if (!/^\d+$/.test(entry.name) || Number(entry.name) === Deno.pid) continue;
    const environ = read(`/proc/${entry.name}/environ`);
    if (environ?.split("\0").includes(marker)) found.push(Number(entry.name));
  }
  return found;
}

/** SIGKILLs every process of the launch that is still there; returns their pids. */
export function reapLaunch(homeDir: string): number[] {
  const pids = launchProcesses(homeDir);
  for (const pid of pids) {
    try {
      Deno.kill(pid, "SIGKILL");
    } catch {
      // Gone already, or not ours to kill.
    }
  }
  return pids;
}
