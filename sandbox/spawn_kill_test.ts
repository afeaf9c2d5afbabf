/** Process groups: timeouts, cancellation, group kills and reaping leftovers. */
import assert from "node:assert/strict";
import { join } from "node:path";
import { killGroup, processAlive, spawnProcess } from "./spawn.ts";

const SH = "/bin/sh";
const SLEEP = "/bin/sleep";
const CAT = "/bin/cat";

/**
 * True once `pid` is dead. The SIGCONT probe throws for a reaped process; in a
 * container whose PID 1 never reaps orphans a killed grandchild stays a
 * zombie, which the probe still reaches, so a `Z` state also counts as gone.
 */
function isGone(pid: number): boolean {
  try {
    Deno.kill(pid, "SIGCONT");
  } catch {
    return true;
  }
  try {
    const stat = Deno.readTextFileSync(`/proc/${pid}/stat`);
    const state = stat.slice(stat.lastIndexOf(")") + 2, stat.lastIndexOf(")") + 3);
    return state === "Z" || state === "X";
  } catch {
    return true;
  }
}

async function waitGone(pid: number, withinMs = 1_500): Promise<boolean> {
  const deadline = Date.now() + withinMs;
  while (Date.now() < deadline) {
    if (isGone(pid)) return true;
    await new Promise((r) => setTimeout(r, 25));
  }
  return isGone(pid);
}

function readPid(stdout: string): number {
  const pid = Number(stdout.trim().split("\n")[0]);
  assert.ok(Number.isInteger(pid) && pid > 1, `no pid in stdout ${JSON.stringify(stdout)}`);
  return pid;
}

Deno.test("spawnProcess() on timeout kills the whole process group, grandchild included", async () => {
  const started = Date.now();
  // reapGroup is off so that only the timeout path can have killed the grandchild.
  const r = await spawnProcess([SH, "-c", "sleep 30 & echo $!; wait"], {
    env: { PATH: "/usr/bin:/bin" },
    timeoutMs: 300,
    reapGroup: false,
  });
  const grandchild = readPid(r.stdout);
  try {
    assert.equal(r.timedOut, true);
    assert.equal(r.cancelled, false);
    assert.equal(r.exitCode, null);
    assert.equal(r.signal, "SIGTERM");
    assert.ok(Date.now() - started < 2_500, `took ${Date.now() - started}ms`);
    assert.ok(await waitGone(grandchild), `grandchild ${grandchild} survived the timeout`);
  } finally {
    if (!isGone(grandchild)) Deno.kill(grandchild, "SIGKILL");
  }
});

Deno.test("spawnProcess() escalates to SIGKILL when the child ignores SIGTERM", async () => {
  const r = await spawnProcess([SH, "-c", "trap '' TERM; echo ready; while :; do sleep 0.05; done"], {
    env: { PATH: "/usr/bin:/bin" },
    timeoutMs: 200,
    killGraceMs: 200,
  });
  assert.equal(r.timedOut, true);
  assert.equal(r.signal, "SIGKILL");
  assert.ok(r.durationMs < 2_000, `took ${r.durationMs}ms`);
});

Deno.test("spawnProcess() stops a process when its AbortSignal fires and reports it cancelled", async () => {
  const controller = new AbortController();
  setTimeout(() => controller.abort(), 150);
  const r = await spawnProcess([SLEEP, "30"], { env: {}, signal: controller.signal, timeoutMs: 10_000 });
  assert.equal(r.cancelled, true);
  assert.equal(r.timedOut, false);
  assert.equal(r.exitCode, null);
  assert.ok(r.durationMs < 2_000, `took ${r.durationMs}ms`);
});

Deno.test("spawnProcess() with an already aborted signal cancels at once", async () => {
  const controller = new AbortController();
  controller.abort();
  const r = await spawnProcess([SLEEP, "30"], { env: {}, signal: controller.signal });
  assert.equal(r.cancelled, true);
  assert.ok(r.durationMs < 2_000, `took ${r.durationMs}ms`);
});

Deno.test("spawnProcess() with a signal that never fires leaves cancelled false", async () => {
  const controller = new AbortController();
  const r = await spawnProcess([SH, "-c", "exit 0"], { env: {}, signal: controller.signal });
  assert.equal(r.cancelled, false);
  assert.equal(r.exitCode, 0);
});

Deno.test("spawnProcess() reaps a background grandchild left by a leader that exits 0", async () => {
  const r = await spawnProcess([SH, "-c", "sleep 30 >/dev/null 2>&1 & echo $!; exit 0"], {
    env: { PATH: "/usr/bin:/bin" },
  });
  const grandchild = readPid(r.stdout);
  try {
    assert.equal(r.exitCode, 0);
    assert.ok(await waitGone(grandchild), `grandchild ${grandchild} outlived its leader`);
  } finally {
    if (!isGone(grandchild)) Deno.kill(grandchild, "SIGKILL");
  }
});

Deno.test("spawnProcess() with reapGroup false leaves the background grandchild running", async () => {
  const r = await spawnProcess([SH, "-c", "sleep 30 >/dev/null 2>&1 & echo $!; exit 0"], {
    env: { PATH: "/usr/bin:/bin" },
    reapGroup: false,
  });
  const grandchild = readPid(r.stdout);
  try {
    assert.equal(r.exitCode, 0);
    await new Promise((resolve) => setTimeout(resolve, 100));
    assert.equal(isGone(grandchild), false, "near miss: without reaping the grandchild must still live");
    assert.equal(processAlive(grandchild), true);
  } finally {
    Deno.kill(grandchild, "SIGKILL");
  }
});

Deno.test("processAlive() is true for this process and false for a grandchild that was killed", async () => {
  assert.equal(processAlive(Deno.pid), true);
  const r = await spawnProcess([SH, "-c", "sleep 30 >/dev/null 2>&1 & echo $!; exit 0"], {
    env: { PATH: "/usr/bin:/bin" },
  });
  const grandchild = readPid(r.stdout);
  assert.ok(await waitGone(grandchild));
  // Reaped or left as a zombie by a PID 1 that never reaps: either way it is not alive.
  assert.equal(processAlive(grandchild), false);
});

Deno.test("killGroup() returns false for a group that does not exist", () => {
  assert.equal(killGroup(2 ** 22 + 12345, "SIGTERM"), false);
});

/** Runs killGroup() in a deno that may start only `kill`, as a step would; prints its result. */
async function killGroupRestricted(pid: number, killBinary: string | null): Promise<string> {
  const dir = await Deno.makeTempDir({ prefix: "spot-killgroup-" });
  try {
    const script = join(dir, "k.ts");
    const spawnUrl = new URL("./spawn.ts", import.meta.url).href;
    await Deno.writeTextFile(
      script,
      `import { killGroup } from ${JSON.stringify(spawnUrl)};\n` +
        `console.log(killGroup(${pid}, "SIGKILL"${killBinary ? `, ${JSON.stringify(killBinary)}` : ""}));\n`,
    );
    const out = await new Deno.Command(Deno.execPath(), {
      args: [
        "run",
        "--no-prompt",
        "--no-config",
        "--no-lock",
        `--allow-read=${dir}`,
        "--allow-run=/bin/kill",
        script,
      ],
      stdin: "null",
    }).output();
    return new TextDecoder().decode(out.stdout).trim() + new TextDecoder().decode(out.stderr).trim();
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

Deno.test("killGroup() falls back to the kill binary where Deno.kill is not permitted", async () => {
  const child = new Deno.Command(SLEEP, {
    args: ["30"],
    detached: true,
    stdin: "null",
    stdout: "null",
    stderr: "null",
  })
    .spawn();
  try {
    assert.equal(
      await killGroupRestricted(child.pid, null),
      "false",
      "near miss: without killBinary it cannot kill",
    );
    assert.equal(processAlive(child.pid), true);
    assert.equal(await killGroupRestricted(child.pid, "/bin/kill"), "true");
    const status = await child.status;
    assert.equal(status.signal, "SIGKILL");
  } finally {
    try {
      child.kill("SIGKILL");
    } catch { /* already gone */ }
    await child.status;
  }
});

// Regression (fixed): sandbox/spawn.ts feedStdin() opens stdinFile only after the child started, and the
// failure is swallowed by `.catch(() => {})` without closing the child's stdin, so a missing
// stdinFile leaves the child blocked on an open stdin until the timeout (or forever without one).
Deno.test({
  name: "spawnProcess() with a missing stdinFile does not leave the child waiting on an open stdin",
  fn: async () => {
    const r = await spawnProcess([CAT], {
      env: {},
      stdinFile: "/nonexistent/spot-stdin.txt",
      timeoutMs: 1_500,
    });
    assert.equal(r.timedOut, false, "cat hung on stdin until the timeout");
  },
});
