/**
 * Ends what a worker launch left behind outside its process group. spot is
 * the child subreaper of its tree (subreaper.ts), so whatever the launch
 * detached is re-parented to spot: after the step ends, every live child of
 * spot started during the turn is the launch's, except those spot started
 * itself (another run's git or worker in the same process, see ownChildren). Besides, the launch's tree
 * is read every WATCH_MS and every member remembered, and each remembered
 * process still alive, with whatever runs in a group or session one of them
 * leads, is killed too (this alone is what remains where there is no
 * subreaper). Found by parent links, groups and sessions: never by anything
 * in a process's environment. Under bwrap the PID namespace ends them all
 * first.
 */
import { guardEvery } from "../base/guard_timer.ts";
import { ownChildren } from "../sandbox/spawn.ts";
import { descendants, identity, leftovers, orphansOf, type ProcInfo, readProcesses } from "./process_tree.ts";
import { startTicks } from "../base/proc_table.ts";

/** Often enough to see a dev server or a watcher detach; cheap (a few ms for a few hundred processes). */
export const WATCH_MS = 200;
/** Each pass kills one generation of a detached tree; deeper trees than this are a fork bomb, already capped. */
const REAP_PASSES = 8;

export interface ProcessWatch {
  /** Stops watching, kills every leftover, and returns their pids. */
  reap(): number[];
}

function kill(pid: number): void {
  try {
    Deno.kill(pid, "SIGKILL");
  } catch {
    // Gone already, or not ours to kill.
  }
}

/** The start time of this process's own children must be at least this to count as the launch's. */
function startOf(pid: number): number {
  return startTicks(pid) ?? Number.MAX_SAFE_INTEGER;
}

export function watchProcesses(root: number): ProcessWatch {
  const seen = new Map<string, ProcInfo>();
  const since = startOf(root);
  const look = (table = readProcesses()) => {
    for (const p of descendants(table, root)) seen.set(identity(p), p);
  };
  look();
  // A guard: the step it watches keeps the process alive while it runs.
  const stopLooking = guardEvery(WATCH_MS, look);
  return {
    reap() {
      stopLooking();
      // One read of the table serves the last look and the first pass.
      let table = readProcesses();
      look(table);
      const killed = new Set<number>();
      // Killing a detached process re-parents its own children to spot; a few passes take them too.
      for (let pass = 0; pass < REAP_PASSES; pass++) {
        if (pass > 0) table = readProcesses();
        const left = [
          ...leftovers(table, seen, Deno.pid),
          ...orphansOf(table, Deno.pid, since, ownChildren()),
        ];
        if (left.length === 0) break;
        for (const p of left) {
          kill(p.pid);
          killed.add(p.pid);
        }
      }
      return [...killed];
    },
  };
}
