/**
 * Advisory file locks. The kernel releases them when the holder dies, so a
 * `kill -9` can never leave a run stuck.
 */
import { SpotError } from "../errors.ts";

export interface HeldLock {
  release(): void;
}

async function openLockFile(path: string): Promise<Deno.FsFile> {
  return await Deno.open(path, { read: true, write: true, create: true, mode: 0o600 });
}

/**
 * While this process forks a child (for any run), the child holds a copy of every open descriptor until it
 * execs, and with it any run lock open at that moment: a lock this process just released can look taken for a
 * few milliseconds. A lock whose file names this process is retried for this long before it counts as held.
 */
const OWN_LOCK_RETRY_MS = 2_000;
/**
 * Admission and gc take a run's lock for a glance (`probeRunLock`: is anyone working on it?) and let go at
 * once; a verb that meets such a glance waits this long before it calls the run busy. A verb's own hold
 * lasts seconds to minutes, so this never makes a busy run look free.
 */
const GLANCE_RETRY_MS = 1_000;
const RETRY_STEP_MS = 25;

/** Takes the lock or fails with RUN_LOCKED; a live lock is never stolen, and waited for only a moment. */
export async function tryLockRun(path: string, runId: string): Promise<HeldLock> {
  const file = await openLockFile(path);
  const started = Date.now();
  while (!(await file.tryLock(true))) {
    const waited = Date.now() - started;
    if (waited >= (holderPid(path) === Deno.pid ? OWN_LOCK_RETRY_MS : GLANCE_RETRY_MS)) {
      file.close();
      throw new SpotError("RUN_LOCKED", `Cannot lock run "${runId}": another spot process is working on it`, {
        details: { runId, hint: "wait for it to finish, or check `spot list --running`" },
      });
    }
    await new Promise((resolve) => setTimeout(resolve, RETRY_STEP_MS));
  }
  await file.truncate(0);
  await file.write(new TextEncoder().encode(JSON.stringify({ pid: Deno.pid, at: new Date().toISOString() })));
  return { release: () => file.close() };
}

/**
 * One try at a run's lock, never waiting: the lock, or null while a live process holds it. For a glance at
 * whether anyone works on a run (admission's count): a moment's false "held" only delays a reclaim.
 */
export async function probeRunLock(path: string): Promise<HeldLock | null> {
  const file = await openLockFile(path);
  if (await file.tryLock(true)) return { release: () => file.close() };
  file.close();
  return null;
}

/** The pid the lock file names: its last holder, the live one while it is held. */
export function holderPid(path: string): number | null {
  try {
    return Number(JSON.parse(Deno.readTextFileSync(path)).pid) || null;
  } catch {
    return null;
  }
}

/** Waits for the lock (used for short global critical sections). */
export async function lockBlocking(path: string): Promise<HeldLock> {
  const file = await openLockFile(path);
  await file.lock(true);
  return { release: () => file.close() };
}

export async function withLock<T>(lock: Promise<HeldLock>, fn: () => Promise<T>): Promise<T> {
  const held = await lock;
  try {
    return await fn();
  } finally {
    held.release();
  }
}
