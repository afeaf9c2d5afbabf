/**
 * Follows the `events.jsonl` of the runs that can still change, and hands
 * back each newly appended, well-formed event with its worker.log line.
 * It polls: one stat per watched run per tick, and the watch list comes from
 * the index, so the cost follows the number of live runs, not of all runs.
 */
import { join } from "../base/path.ts";
import type { RunIndex } from "../store/run_index.ts";
import type { SpotPaths } from "../store/paths.ts";
import { renderWorkerLogLine } from "../store/worker_log.ts";
import { SpotEvent } from "../schemas/events.ts";

/** Finished runs stay watched this long, so their last events are not missed. */
export const RECENT_MS = 120_000;
/** A feed follows at most this many runs at once (the most recently changed). */
export const MAX_WATCHED = 64;
/** One read per tick per run; a burst bigger than this waits for the next tick. */
const MAX_READ_BYTES = 256 * 1024;

export interface FeedItem {
  runId: string;
  type: string;
  /** The new status, for a transition. */
  to: string | null;
  /** The line worker.log got for this event, if any. */
  line: string | null;
}

export class EventFeed {
  readonly #offsets = new Map<string, number>();
  readonly #startedAt: string;

  constructor(
    readonly index: RunIndex,
    readonly paths: SpotPaths,
    readonly now: () => Date = () => new Date(),
  ) {
    this.#startedAt = this.now().toISOString();
  }

  #file(runId: string): string {
    return join(this.paths.runsDir, runId, "events.jsonl");
  }

  async #size(runId: string): Promise<number> {
    return await Deno.stat(this.#file(runId)).then((i) => i.size, () => 0);
  }

  /** Starts every currently watched run at its end: only what happens from now on is sent. */
  async prime(): Promise<void> {
    await this.index.refresh();
    for (const { runId } of this.#watched()) this.#offsets.set(runId, await this.#size(runId));
  }

  #watched() {
    const since = new Date(this.now().getTime() - RECENT_MS).toISOString();
    return this.index.watchList(since, MAX_WATCHED);
  }

  /** New events since the last call. */
  async poll(): Promise<FeedItem[]> {
    await this.index.refresh();
    const out: FeedItem[] = [];
    const watched = this.#watched();
    const keep = new Set<string>();
    for (const { runId, createdAt } of watched) {
      keep.add(runId);
      // A run created after the feed started is sent from its first event; an older one from now on.
      if (!this.#offsets.has(runId)) {
        this.#offsets.set(runId, createdAt >= this.#startedAt ? 0 : await this.#size(runId));
      }
      out.push(...await this.#read(runId));
    }
    for (const runId of [...this.#offsets.keys()]) if (!keep.has(runId)) this.#offsets.delete(runId);
    return out;
  }

  async #read(runId: string): Promise<FeedItem[]> {
    let offset = this.#offsets.get(runId) ?? 0;
    const size = await this.#size(runId);
    if (size < offset) offset = 0; // replaced or truncated: start over
    if (size === offset) return [];
    const file = await Deno.open(this.#file(runId), { read: true }).catch(() => null);
    if (!file) return [];
    let bytes: Uint8Array;
    try {
      await file.seek(offset, Deno.SeekMode.Start);
      bytes = new Uint8Array(Math.min(size - offset, MAX_READ_BYTES));
      let got = 0;
      while (got < bytes.length) {
        const n = await file.read(bytes.subarray(got));
        if (n === null) break;
        got += n;
      }
      bytes = bytes.subarray(0, got);
    } finally {
      file.close();
    }
    const end = bytes.lastIndexOf(0x0a);
    if (end < 0) {
      // A line still being written; or one longer than a read, which is skipped rather than waited on forever.
      if (bytes.length === MAX_READ_BYTES) this.#offsets.set(runId, offset + bytes.length);
      return [];
    }
    this.#offsets.set(runId, offset + end + 1);
    return new TextDecoder().decode(bytes.subarray(0, end)).split("\n").flatMap((l) => toItem(runId, l));
  }
}

/** One log line as a feed item; torn, foreign or malformed lines are dropped. */
export function toItem(runId: string, line: string): FeedItem[] {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return [];
  }
  const parsed = SpotEvent.safeParse(value);
  if (!parsed.success || parsed.data.runId !== runId) return [];
  const event = parsed.data;
  return [{
    runId,
    type: event.type,
    to: event.type === "transition" ? event.to : null,
    line: renderWorkerLogLine(event),
  }];
}
