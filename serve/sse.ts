/**
 * `GET /api/events`: run events and job transitions as Server-Sent Events.
 * Each client gets its own feeds; the loop ends when the client goes or the
 * server stops, and a HEAD request is answered without starting one.
 */
import type { Context } from "hono";
import { streamSSE } from "hono/streaming";
import type { RunIndex } from "../store/run_index.ts";
import type { SpotPaths } from "../store/paths.ts";
import { EventFeed } from "./event_feed.ts";
import { JobFeed } from "./jobs/feed.ts";

export interface SseOptions {
  index: RunIndex;
  paths: SpotPaths;
  /** How often the feed looks for new events. */
  pollMs: number;
  /** A comment line this often keeps proxies and the browser from timing the stream out. */
  heartbeatMs: number;
  /** Aborted when the server stops: every stream ends. */
  signal: AbortSignal;
  /** Open streams, for /health and tests. */
  open: { count: number };
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal.removeEventListener("abort", done);
      resolve();
    }
    signal.addEventListener("abort", done, { once: true });
  });
}

export function eventsRoute(c: Context, o: SseOptions): Response | Promise<Response> {
  if (c.req.method === "HEAD") {
    return c.body(null, 200, { "content-type": "text/event-stream", "cache-control": "no-store" });
  }
  return streamSSE(c, async (stream) => {
    const stop = new AbortController();
    const end = () => stop.abort();
    o.signal.addEventListener("abort", end, { once: true });
    stream.onAbort(end);
    o.open.count++;
    try {
      const feed = new EventFeed(o.index, o.paths);
      const jobs = new JobFeed(o.paths);
      await feed.prime();
      await jobs.prime();
      await stream.writeSSE({ event: "hello", data: JSON.stringify({ pollMs: o.pollMs }) });
      let beat = Date.now();
      let seq = 0;
      while (!stop.signal.aborted && !stream.aborted) {
        for (const item of await feed.poll()) {
          await stream.writeSSE({ event: "run", id: String(++seq), data: JSON.stringify(item) });
        }
        for (const item of await jobs.poll()) {
          await stream.writeSSE({ event: "job", id: String(++seq), data: JSON.stringify(item) });
        }
        if (Date.now() - beat >= o.heartbeatMs) {
          await stream.write(`: heartbeat ${new Date().toISOString()}\n\n`);
          beat = Date.now();
        }
        await sleep(o.pollMs, stop.signal);
      }
    } catch {
      // A write to a client that has gone; nothing to tell anyone.
    } finally {
      o.open.count--;
      o.signal.removeEventListener("abort", end);
    }
  });
}
