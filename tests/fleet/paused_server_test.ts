/**
 * A queue whose server stops answering (paused with SIGSTOP, as a partition looks from the client) never holds
 * spot longer than it must: an executor's bundle download that is cancelled stops at once (its retries would
 * otherwise wait out the queue's minute of patience), and closing the connection returns within seconds (a
 * drain's flush is never answered).
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { openNatsQueue } from "../../queue/nats.ts";
import { QueueConfig } from "../../schemas/config.ts";
import { fetchCommit, repoStore, uploadCommit } from "../../fleet/repo_sync.ts";
import { makeRepo, sh } from "../helpers.ts";
import { startNats } from "./nats_server.ts";

/** How long the test waits for what must take a second or two, before it calls it a hang. */
const HANG_MS = 20_000;

async function timed<T>(p: Promise<T>): Promise<{ ms: number; outcome: "resolved" | "rejected" | "hung" }> {
  const t0 = Date.now();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const outcome = await Promise.race([
    p.then(() => "resolved" as const, () => "rejected" as const),
    new Promise<"hung">((r) => timer = setTimeout(r, HANG_MS, "hung")),
  ]);
  clearTimeout(timer);
  return { ms: Date.now() - t0, outcome };
}

Deno.test({
  name: "a cancelled bundle download stops within a second on a paused server, and the queue still closes",
  sanitizeOps: false,
  sanitizeResources: false,
  fn: async () => {
    const nats = await startNats();
    let paused = false;
    const cont = () => {
      if (paused) Deno.kill(nats.pid(), "SIGCONT");
      paused = false;
    };
    try {
      // A lease of 20 s makes each request wait 5 s for an answer: a cancel must not wait for that either.
      const config = QueueConfig.parse({ backend: "nats", url: nats.url, leaseSeconds: 20 });
      const queue = await openNatsQueue(config, { client: "paused test" });
      const dir = await Deno.makeTempDir({ prefix: "spot-paused-" });
      const repo = await makeRepo({ "a.txt": "a\n" }, dir);
      const commit = await sh(repo, "git", "rev-parse", "HEAD");
      const scratch = join(dir, "scratch");
      await Deno.mkdir(scratch);
      const repoId = await uploadCommit(queue, repo, { commit, scratch });
      const store = await repoStore(join(dir, "cache"), repoId);

      Deno.kill(nats.pid(), "SIGSTOP");
      paused = true;
      const cancel = new AbortController();
      const fetching = fetchCommit(queue, store, { repoId, commit, scratch, signal: cancel.signal });
      await new Promise((r) => setTimeout(r, 1_500));
      const cancelledAt = Date.now();
      cancel.abort();
      const fetched = await timed(fetching);
      const late = fetched.ms;
      assert.equal(
        fetched.outcome,
        "rejected",
        `the download ${fetched.outcome} ${late} ms after its cancel`,
      );
      assert.ok(Date.now() - cancelledAt < 1_000, `the download stopped ${late} ms after its cancel`);
      await fetching.catch((error) => assert.equal(error.code, "CANCELLED", String(error)));

      const closed = await timed(queue.close());
      assert.equal(closed.outcome, "resolved", `the close ${closed.outcome} after ${closed.ms} ms`);
      assert.ok(closed.ms < 6_000, `the close took ${closed.ms} ms`);
      await Deno.remove(dir, { recursive: true }).catch(() => {});
    } finally {
      cont();
      await nats.stop();
    }
  },
});
