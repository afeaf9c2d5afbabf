import assert from "node:assert/strict";
import { isSpotError } from "../errors.ts";
import { makeRepo } from "../tests/helpers.ts";
import { holdLanding, landingLockPath, withLanding } from "./landing_lock.ts";

async function withRepo(fn: (repo: string) => Promise<void>): Promise<void> {
  const dir = await Deno.makeTempDir({ prefix: "spot-landing-lock-" });
  try {
    await fn(await makeRepo({ "a.txt": "a\n" }, dir));
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

Deno.test("holdLanding() makes a second lander wait until the first lets go, and says whom it waited for", async () => {
  await withRepo(async (repo) => {
    const first = await holdLanding(repo, { what: "run r-1" });
    assert.equal(first.waitedMs, 0);
    let waitingFor: string | undefined;
    const second = holdLanding(repo, { what: "run r-2", onWait: (h) => waitingFor = h?.what });
    await sleep(300);
    assert.equal(waitingFor, "run r-1", "the second did not wait");
    first.release();
    const held = await second;
    assert.equal(held.waitedFor?.what, "run r-1");
    assert.ok(held.waitedMs >= 250, `waited ${held.waitedMs} ms`);
    held.release();
  });
});

Deno.test("holdLanding() is re-entrant only for the hold it is given; another lander in the process still waits", async () => {
  await withRepo(async (repo) => {
    await withLanding(repo, { what: "job j-1" }, async (outer) => {
      const inner = await holdLanding(repo, { what: "run j-1.api", held: outer });
      assert.equal(inner.path, await landingLockPath(repo));
      inner.release(); // a no-op: the outer hold still stands
      await assert.rejects(
        holdLanding(repo, { what: "run other", waitMs: 200 }),
        (e) => isSpotError(e, "LANDING_BUSY") && /job j-1/.test(e.message),
      );
    });
    (await holdLanding(repo, { what: "after", waitMs: 200 })).release();
  });
});

Deno.test("holdLanding() waits past its bound for a holder that declared it needs longer", async () => {
  await withRepo(async (repo) => {
    const first = await holdLanding(repo, { what: "run slow" });
    await first.declare(Date.now() + 600);
    const start = Date.now();
    setTimeout(() => first.release(), 500);
    const second = await holdLanding(repo, { what: "run next", waitMs: 100 });
    assert.ok(Date.now() - start >= 450, "it gave up before the holder's declared end");
    second.release();
  });
});

Deno.test("holdLanding() is LANDING_BUSY (exit 5) after its bound, naming the holder, with nothing taken", async () => {
  await withRepo(async (repo) => {
    const first = await holdLanding(repo, { what: "run stuck" });
    try {
      const error = await holdLanding(repo, { what: "run r-2", waitMs: 150 }).catch((e) => e);
      assert.ok(isSpotError(error, "LANDING_BUSY"), String(error));
      assert.equal(error.exitCode, 5);
      assert.equal((error.details.holder as { what: string }).what, "run stuck");
    } finally {
      first.release();
    }
  });
});
