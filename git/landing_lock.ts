/**
 * One landing at a time per repository. Every verb that changes the user's branch or checkout on spot's behalf
 * (`integrate`, `job integrate`, `job rollback`) holds this lock from its look at the source to the end of the
 * landing, checks at integration included, so two of them can never both decide on the same HEAD. The lock is
 * a kernel file lock in the repository's common git dir (`spot-landing.lock`, beside the worktree lock): every
 * spot process on that repository sees it whatever its state dir, and a killed holder's lock goes with it.
 *
 * A second lander waits (polling, bounded) and then decides on the HEAD it finds. A caller that holds the lock
 * and calls another landing function passes its hold along (`held`), which makes the lock re-entrant for that
 * call and for nothing else: two landings in one process (the MCP server) still take turns.
 */
import { join } from "../base/path.ts";
import { SpotError } from "../errors.ts";
import { gitCommonDir } from "./repo.ts";

/** What the holder writes into the lock file for whoever waits. */
export interface LandingHolder {
  pid: number;
  /** What lands: `run RUN`, `job JOB`, `rollback of job JOB`. */
  what: string;
  at: string;
  /** When the holder expects to be done at the latest (its checks' timeouts and a margin). */
  until?: string;
}

export interface LandingHold {
  /** The lock file, one per repository. */
  readonly path: string;
  /** How long this hold waited for another lander, in ms (0 when the lock was free). */
  readonly waitedMs: number;
  /** Who held the lock while this one waited, when anyone did. */
  readonly waitedFor: LandingHolder | null;
  /** Says, for anyone who waits, when this landing will be done at the latest. */
  declare(untilMs: number): Promise<void>;
  release(): void;
}

/** Waited for a landing that names no end (or one already past it) before LANDING_BUSY. */
export const LANDING_WAIT_MS = 10 * 60_000;
/** A holder that says when it will be done is waited for until then, plus this. */
const HOLDER_GRACE_MS = 60_000;
/** Never waited for longer than this, whatever a holder declares. */
const MAX_WAIT_MS = 60 * 60_000;
const POLL_MS = 50;

export interface HoldOptions {
  /** What this landing is, for the lock file and for whoever waits. */
  what: string;
  /** The caller's own hold on this repository: returned as is (re-entrant), never released by the callee. */
  held?: LandingHold;
  /** How long to wait for a holder that names no end (LANDING_WAIT_MS). */
  waitMs?: number;
  /** Told once when another lander holds the lock, before the wait. */
  onWait?: (holder: LandingHolder | null) => void;
}

/** The lock file of the repository `cwd` belongs to. */
export async function landingLockPath(cwd: string): Promise<string> {
  return join(await gitCommonDir(cwd), "spot-landing.lock");
}

function readHolder(path: string): LandingHolder | null {
  try {
    const v = JSON.parse(Deno.readTextFileSync(path));
    return typeof v?.pid === "number" ? v as LandingHolder : null;
  } catch {
    return null;
  }
}

function deadline(start: number, waitMs: number, holder: LandingHolder | null): number {
  const until = holder?.until ? Date.parse(holder.until) + HOLDER_GRACE_MS : 0;
  return Math.min(start + MAX_WAIT_MS, Math.max(start + waitMs, until));
}

/** Takes the repository's landing lock, waiting a bounded time for another lander; LANDING_BUSY after that. */
export async function holdLanding(cwd: string, options: HoldOptions): Promise<LandingHold> {
  const path = await landingLockPath(cwd);
  if (options.held) {
    if (options.held.path !== path) {
      throw new Error(`holdLanding(): the hold given is for ${options.held.path}, not ${path}`);
    }
    return { ...options.held, release: () => {} };
  }
  const file = await Deno.open(path, { read: true, write: true, create: true, mode: 0o600 });
  const start = Date.now();
  let holder: LandingHolder | null = null;
  let told = false;
  while (!(await file.tryLock(true))) {
    holder = readHolder(path) ?? holder;
    if (!told) {
      told = true;
      options.onWait?.(holder);
    }
    if (Date.now() >= deadline(start, options.waitMs ?? LANDING_WAIT_MS, holder)) {
      file.close();
      const seconds = Math.round((Date.now() - start) / 1000);
      throw new SpotError(
        "LANDING_BUSY",
        `Cannot land ${options.what}: another landing into this repository (${
          holder ? `${holder.what}, pid ${holder.pid}` : "a spot process"
        }) still holds it after ${seconds}s`,
        {
          details: {
            lock: path,
            holder,
            waitedMs: Date.now() - start,
            hint: "try again once it is done; nothing was changed",
          },
        },
      );
    }
    await new Promise((r) => setTimeout(r, POLL_MS));
  }
  const me: LandingHolder = { pid: Deno.pid, what: options.what, at: new Date().toISOString() };
  const write = async (record: LandingHolder) => {
    await file.truncate(0);
    await file.seek(0, Deno.SeekMode.Start);
    await file.write(new TextEncoder().encode(JSON.stringify(record)));
  };
  await write(me);
  return {
    path,
    waitedMs: told ? Date.now() - start : 0,
    waitedFor: told ? holder : null,
    declare: (untilMs) => write({ ...me, until: new Date(untilMs).toISOString() }),
    release: () => file.close(),
  };
}

/** Runs `fn` holding the landing lock of `cwd`'s repository (see holdLanding). */
export async function withLanding<T>(
  cwd: string,
  options: HoldOptions,
  fn: (hold: LandingHold) => Promise<T>,
): Promise<T> {
  const hold = await holdLanding(cwd, options);
  try {
    return await fn(hold);
  } finally {
    hold.release();
  }
}
