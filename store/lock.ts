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

/** Takes the lock or fails at once with RUN_LOCKED; a live lock is never stolen. */
export async function tryLockRun(path: string, runId: string): Promise<HeldLock> {
  const file = await openLockFile(path);
  if (!(await file.tryLock(true))) {
    file.close();
    throw new SpotError("RUN_LOCKED", `Cannot lock run "${runId}": another spot process is working on it`, {
      details: { runId, hint: "wait for it to finish, or check `spot list --running`" },
    });
  }
  await file.truncate(0);
  await file.write(new TextEncoder().encode(JSON.stringify({ pid: Deno.pid, at: new Date().toISOString() })));
  return { release: () => file.close() };
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
