/**
 * Follows the jobs' `events.jsonl` for the live pages: every job and task transition appended since the feed
 * started, read through the job store's `readEvents`. It polls: each tick costs one stat of the jobs folder
 * and one of each watched job's events file. The folder is listed again only when it changed (a job was
 * created) or every RESCAN_MS (an older job started again), so a tick does not grow with old jobs.
 */
import { join } from "../../base/path.ts";
import { type JobEvent, jobsDir, readEvents } from "../../graphs/store.ts";
import type { SpotPaths } from "../../store/paths.ts";
import { jobIds } from "./read.ts";

/** A feed follows at most this many jobs at once: the ones whose events changed last. */
export const MAX_WATCHED_JOBS = 64;
/** Jobs looked at when the folder is listed, newest first: a bound on a rescan, not on the jobs kept. */
const MAX_SCANNED = 1_000;
/** An older job started again is noticed within this long, even when the folder did not change. */
export const RESCAN_MS = 5_000;
/**
 * A file's mtime comes from the kernel's coarse clock, a few ms behind Date.now(): a job counts as older than
 * the feed only when clearly so. A job that changed just before is sent whole, which costs a page refresh.
 */
const CLOCK_SLACK_MS = 2_000;

export interface JobFeedItem {
  jobId: string;
  type: "job" | "task";
  /** The task, for a task transition. */
  id: string | null;
  state: string;
  runId: string | null;
  at: string;
}

interface Seen {
  /** The events file's size when last read: a change detector only. */
  size: number;
  /** Events already sent (or there before the feed started). */
  count: number;
}

const mtimeOf = (path: string) => Deno.stat(path).then((i) => i.mtime?.getTime() ?? null, () => null);

/** One stored event as a feed item; anything that does not look like one is dropped. */
export function toJobItem(jobId: string, e: Partial<JobEvent> | null): JobFeedItem[] {
  if (typeof e !== "object" || e === null) return [];
  if ((e.type !== "job" && e.type !== "task") || typeof e.state !== "string") return [];
  return [{
    jobId,
    type: e.type,
    id: typeof e.id === "string" ? e.id : null,
    state: e.state,
    runId: typeof e.runId === "string" ? e.runId : null,
    at: typeof e.at === "string" ? e.at : "",
  }];
}

export class JobFeed {
  readonly #seen = new Map<string, Seen>();
  #watched: string[] = [];
  #dirMtime: number | null = null;
  #scannedAt = -Infinity;
  readonly #startedAt: number;

  constructor(readonly paths: SpotPaths, readonly clock: () => number = Date.now) {
    this.#startedAt = clock();
  }

  #file(jobId: string): string {
    return join(jobsDir(this.paths), jobId, "events.jsonl");
  }

  /** Starts every existing job at its end: only what happens from now on is sent. */
  prime(): Promise<void> {
    return this.#scan(true);
  }

  async #scan(priming: boolean): Promise<void> {
    this.#scannedAt = this.clock();
    this.#dirMtime = await mtimeOf(jobsDir(this.paths));
    const ids = (await jobIds(this.paths)).slice(0, MAX_SCANNED);
    const found = await Promise.all(
      ids.map(async (id) => ({ id, info: await Deno.stat(this.#file(id)).catch(() => null) })),
    );
    found.sort((a, b) => (b.info?.mtime?.getTime() ?? 0) - (a.info?.mtime?.getTime() ?? 0));
    const watched = found.slice(0, MAX_WATCHED_JOBS);
    this.#watched = watched.map((w) => w.id);
    for (const { id, info } of watched) {
      if (this.#seen.has(id)) continue;
      // A job there before the feed started is followed from now on; a new one from its first event.
      const old = priming || (info?.mtime?.getTime() ?? 0) < this.#startedAt - CLOCK_SLACK_MS;
      const count = old ? (await readEvents(this.paths, id).catch(() => [])).length : 0;
      this.#seen.set(id, { size: old ? info?.size ?? 0 : 0, count });
    }
    const keep = new Set(this.#watched);
    for (const id of [...this.#seen.keys()]) if (!keep.has(id)) this.#seen.delete(id);
  }

  /** Transitions appended since the last call, oldest first per job. */
  async poll(): Promise<JobFeedItem[]> {
    const mtime = await mtimeOf(jobsDir(this.paths));
    if (mtime !== this.#dirMtime || this.clock() - this.#scannedAt >= RESCAN_MS) await this.#scan(false);
    const out: JobFeedItem[] = [];
    for (const id of this.#watched) {
      const seen = this.#seen.get(id);
      const size = await Deno.stat(this.#file(id)).then((i) => i.size, () => 0);
      if (!seen || size === seen.size) continue;
      const events = await readEvents(this.paths, id).catch(() => null);
      if (events === null) continue;
      seen.size = size;
      // Counting, not byte offsets: a read that already saw a later line is not sent twice next time.
      out.push(...events.slice(seen.count).flatMap((e) => toJobItem(id, e)));
      seen.count = events.length;
    }
    return out;
  }
}
