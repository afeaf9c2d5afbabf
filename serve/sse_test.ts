import assert from "node:assert/strict";
import { join } from "node:path";
import { createApp } from "./app.ts";
import { type FixtureHome, fixtureHome, fixtureState, writeFixtureRun } from "../tests/fixture_runs.ts";
import { toItem } from "./event_feed.ts";

const BASE = "http://127.0.0.1:7317";

function event(runId: string, fields: Record<string, unknown>): string {
  return JSON.stringify({ at: new Date().toISOString(), runId, ...fields }) + "\n";
}

/** Reads an SSE body until `want` matches the text so far, or fails after `ms`. */
class SseReader {
  text = "";
  #reader: ReadableStreamDefaultReader<Uint8Array>;
  #decoder = new TextDecoder();
  constructor(body: ReadableStream<Uint8Array>) {
    this.#reader = body.getReader();
  }
  async until(want: RegExp, ms = 5_000): Promise<string> {
    const deadline = Date.now() + ms;
    while (!want.test(this.text)) {
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`no ${want} in: ${this.text}`);
      let timer: ReturnType<typeof setTimeout> | undefined;
      const chunk = await Promise.race([
        this.#reader.read(),
        new Promise<null>((r) => timer = setTimeout(() => r(null), left)),
      ]);
      clearTimeout(timer);
      if (chunk === null) continue;
      if (chunk.done) throw new Error(`stream ended before ${want}: ${this.text}`);
      this.text += this.#decoder.decode(chunk.value, { stream: true });
    }
    return this.text;
  }
  async done(ms = 3_000): Promise<boolean> {
    const deadline = Date.now() + ms;
    while (Date.now() < deadline) {
      const r = await this.#reader.read();
      if (r.done) return true;
    }
    return false;
  }
  cancel(): Promise<void> {
    return this.#reader.cancel();
  }
}

async function withSse(
  fn: (h: FixtureHome, app: ReturnType<typeof createApp>, stop: AbortController) => Promise<void>,
) {
  const h = await fixtureHome();
  const stop = new AbortController();
  const app = createApp({
    ...h,
    binding: { hostname: "127.0.0.1", port: 7317 },
    signal: stop.signal,
    pollMs: 30,
    heartbeatMs: 150,
  });
  try {
    await fn(h, app, stop);
  } finally {
    stop.abort();
    await h.cleanup();
  }
}

async function streams(app: ReturnType<typeof createApp>): Promise<number> {
  return (await (await app.request(`${BASE}/health`)).json()).streams;
}

async function waitFor(check: () => Promise<boolean>, ms = 3_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error("condition not reached");
    await new Promise((r) => setTimeout(r, 20));
  }
}

Deno.test("GET /api/events streams events appended after connecting, new runs included, with heartbeats", async () => {
  await withSse(async (h, app) => {
    const dir = await writeFixtureRun(h.paths, fixtureState("run-old", { status: "running" }), {
      events: [JSON.parse(event("run-old", { type: "note", message: "history, not news" }))],
    });
    const res = await app.request(`${BASE}/api/events`);
    assert.match(res.headers.get("content-type") ?? "", /text\/event-stream/);
    const sse = new SseReader(res.body!);
    await sse.until(/event: hello/);
    await Deno.writeTextFile(
      join(dir, "events.jsonl"),
      event("run-old", { type: "worker_text", phase: "run", text: "now \x1b[31mred\x1b[0m" }),
      { append: true },
    );
    await sse.until(/"runId":"run-old","type":"worker_text"/);
    assert.ok(!sse.text.includes("history, not news"), "events from before the connection are not replayed");
    assert.ok(!sse.text.includes("\\u001b"), "terminal escapes are stripped from the log line");
    await writeFixtureRun(
      h.paths,
      fixtureState("run-new", { status: "prepared", createdAt: new Date().toISOString() }),
      {
        events: [
          JSON.parse(
            event("run-new", { type: "transition", from: null, to: "prepared", reason: "prepared" }),
          ),
        ],
      },
    );
    await sse.until(/"runId":"run-new","type":"transition","to":"prepared"/);
    await sse.until(/: heartbeat/);
    await sse.cancel();
  });
});

Deno.test("the event stream ends its loop when the client goes away", async () => {
  await withSse(async (_h, app) => {
    const res = await app.request(`${BASE}/api/events`);
    const sse = new SseReader(res.body!);
    await sse.until(/event: hello/);
    assert.equal(await streams(app), 1);
    await sse.cancel();
    await waitFor(async () => (await streams(app)) === 0);
  });
});

Deno.test("stopping the server ends every open event stream", async () => {
  await withSse(async (_h, app, stop) => {
    const readers = await Promise.all([1, 2].map(async () => {
      const sse = new SseReader((await app.request(`${BASE}/api/events`)).body!);
      await sse.until(/event: hello/);
      return sse;
    }));
    assert.equal(await streams(app), 2);
    stop.abort();
    for (const sse of readers) assert.equal(await sse.done(), true);
    await waitFor(async () => (await streams(app)) === 0);
  });
});

Deno.test("HEAD /api/events answers without starting a stream", async () => {
  await withSse(async (_h, app) => {
    const res = await app.request(`${BASE}/api/events`, { method: "HEAD" });
    assert.equal(res.status, 200);
    assert.match(res.headers.get("content-type") ?? "", /text\/event-stream/);
    await res.body?.cancel();
    assert.equal(await streams(app), 0);
  });
});

Deno.test("toItem() drops torn, foreign and malformed event lines", () => {
  const good = event("r1", { type: "transition", from: "running", to: "verifying", reason: "done" });
  assert.equal(toItem("r1", good.trim()).length, 1);
  assert.equal(toItem("r1", good.trim())[0].to, "verifying");
  assert.deepEqual(toItem("r1", good.slice(0, 20)), []);
  assert.deepEqual(toItem("r2", good.trim()), [], "an event naming another run");
  assert.deepEqual(toItem("r1", JSON.stringify({ type: "transition", runId: "r1" })), []);
  assert.deepEqual(toItem("r1", "[]"), []);
});
