import assert from "node:assert/strict";
import { join } from "node:path";
import { isSpotError } from "../errors.ts";
import { lockBlocking, probeRunLock, tryLockRun, withLock } from "./lock.ts";

async function withDir(fn: (dir: string) => Promise<void>): Promise<void> {
  const dir = await Deno.makeTempDir({ prefix: "spot-lock-" });
  try {
    await fn(dir);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

const isRunLocked = (e: unknown) => isSpotError(e, "RUN_LOCKED");

Deno.test("tryLockRun() refuses a second lock with RUN_LOCKED while the first is held, then allows it after release", async () => {
  await withDir(async (dir) => {
    const path = join(dir, "run.lock");
    const first = await tryLockRun(path, "run-1");
    try {
      await assert.rejects(tryLockRun(path, "run-1"), isRunLocked);
    } finally {
      first.release();
    }
    const again = await tryLockRun(path, "run-1");
    again.release();
  });
});

Deno.test("tryLockRun() names the run in its RUN_LOCKED error", async () => {
  await withDir(async (dir) => {
    const path = join(dir, "run.lock");
    const held = await tryLockRun(path, "run-abc");
    try {
      await assert.rejects(
        tryLockRun(path, "run-abc"),
        (e: unknown) => isRunLocked(e) && /run-abc/.test(String(e)),
      );
    } finally {
      held.release();
    }
  });
});

Deno.test("tryLockRun() on a different file is not blocked", async () => {
  await withDir(async (dir) => {
    const a = await tryLockRun(join(dir, "a.lock"), "a");
    const b = await tryLockRun(join(dir, "b.lock"), "b");
    a.release();
    b.release();
  });
});

Deno.test("tryLockRun() writes the holder's pid into the lock file with mode 0600", async () => {
  await withDir(async (dir) => {
    const path = join(dir, "run.lock");
    await Deno.writeTextFile(path, "stale content that is much longer than the new record");
    const held = await tryLockRun(path, "run-1");
    try {
      const record = JSON.parse(await Deno.readTextFile(path));
      assert.equal(record.pid, Deno.pid);
      assert.equal(typeof record.at, "string");
      const created = join(dir, "fresh.lock");
      const other = await tryLockRun(created, "run-2");
      assert.equal((await Deno.stat(created)).mode! & 0o777, 0o600);
      other.release();
    } finally {
      held.release();
    }
  });
});

Deno.test("withLock() releases the lock even when the body throws", async () => {
  await withDir(async (dir) => {
    const path = join(dir, "global.lock");
    await assert.rejects(
      withLock(lockBlocking(path), () => Promise.reject(new Error("boom"))),
      /boom/,
    );
    const after = await tryLockRun(path, "x");
    after.release();
  });
});

Deno.test("withLock() holds the lock while its body runs", async () => {
  await withDir(async (dir) => {
    const path = join(dir, "global.lock");
    const value = await withLock(lockBlocking(path), async () => {
      await assert.rejects(tryLockRun(path, "x"), isRunLocked);
      return 42;
    });
    assert.equal(value, 42);
  });
});

Deno.test("tryLockRun() is blocked by a lock held in a child process and free after kill -9 of that child", async () => {
  await withDir(async (dir) => {
    const path = join(dir, "run.lock");
    const code = `
      const f = await Deno.open(${JSON.stringify(path)}, { read: true, write: true, create: true });
      if (!(await f.tryLock(true))) Deno.exit(3);
      console.log("locked");
      await new Promise((r) => setTimeout(r, 60_000));
    `;
    const child = new Deno.Command(Deno.execPath(), {
      args: ["eval", "--no-config", code],
      stdin: "null",
      stdout: "piped",
      stderr: "null",
    }).spawn();
    let killed = false;
    try {
      const reader = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
      let seen = "";
      const deadline = setTimeout(() => child.kill("SIGKILL"), 10_000);
      while (!seen.includes("locked")) {
        const { value, done } = await reader.read();
        if (done) break;
        seen += value;
      }
      clearTimeout(deadline);
      assert.ok(seen.includes("locked"), `child never took the lock: ${JSON.stringify(seen)}`);

      await assert.rejects(tryLockRun(path, "run-1"), isRunLocked);

      Deno.kill(child.pid, "SIGKILL");
      killed = true;
      const status = await child.status;
      assert.equal(status.signal, "SIGKILL");
      reader.releaseLock();
      await child.stdout.cancel().catch(() => {});

      const ours = await tryLockRun(path, "run-1");
      ours.release();
    } finally {
      if (!killed) {
        try {
          child.kill("SIGKILL");
        } catch { /* already gone */ }
        await child.status;
      }
    }
  });
});

Deno.test("tryLockRun() waits out a lock this process just released (a forked child's copy), not long another process's", async () => {
  await withDir(async (dir) => {
    const path = join(dir, "run.lock");
    // A second open file description stands in for the copy a child holds between fork and exec.
    const first = await tryLockRun(path, "run-1");
    const copy = await Deno.open(path, { read: true });
    first.release();
    // Waits rather than tries: another test's fork may hold a copy of the lock for a moment, as below.
    await copy.lock(true);
    setTimeout(() => copy.close(), 300);
    const started = Date.now();
    const again = await tryLockRun(path, "run-1");
    again.release();
    assert.ok(Date.now() - started >= 200, "it waited for the copy to go");

    // A holder that names another process is waited for only a glance's length, then refused.
    await Deno.writeTextFile(path, JSON.stringify({ pid: Deno.pid + 1_000_000 }));
    const other = await Deno.open(path, { read: true });
    try {
      await other.lock(true);
      const t = Date.now();
      await assert.rejects(tryLockRun(path, "run-1"), isRunLocked);
      assert.ok(Date.now() - t < 2_000, "refused without a long wait");
    } finally {
      other.close();
    }
  });
});

Deno.test("tryLockRun() gets in after another process's glance (probeRunLock) lets go, and probeRunLock never waits", async () => {
  await withDir(async (dir) => {
    const path = join(dir, "run.lock");
    const glance = await probeRunLock(path);
    assert.ok(glance, "a free lock is free to a glance");
    assert.equal(await probeRunLock(path), null, "a held lock is not");
    setTimeout(() => glance.release(), 300);
    const held = await tryLockRun(path, "run-1");
    assert.equal(await probeRunLock(path), null);
    held.release();
  });
});
