import assert from "node:assert/strict";
import { spawnProcess } from "../sandbox/spawn.ts";

// Runs in a process of its own: the reap kills children of the process that calls it, and the test runner holds
// every test file's children.
const SCRIPT = `
import { spawnProcess, processAlive } from ${
  JSON.stringify(new URL("../sandbox/spawn.ts", import.meta.url).href)
};
import { watchProcesses } from ${JSON.stringify(new URL("./process_watch.ts", import.meta.url).href)};
import { becomeSubreaper } from ${JSON.stringify(new URL("./subreaper.ts", import.meta.url).href)};
const env = { PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin" };
if (!becomeSubreaper()) { console.log(JSON.stringify({ skip: true })); Deno.exit(0); }
let watch;
let siblingPid = 0;
let orphanPid = 0;
// A launch that detaches a daemon at once (faster than the tree watch), while this process runs a sibling of its own.
const launch = spawnProcess(["sh", "-c", "setsid sleep 30 </dev/null >/dev/null 2>&1 & echo $!; sleep 0.3"], {
  env,
  onSpawn: (pid) => { watch = watchProcesses(pid); },
  onStdoutLine: (line) => { orphanPid = Number(line); },
});
const sibling = spawnProcess(["sleep", "30"], { env, onSpawn: (pid) => { siblingPid = pid; }, timeoutMs: 20_000 });
await launch;
const reaped = watch.reap();
const result = { reaped, siblingPid, orphanPid, siblingAlive: processAlive(siblingPid), orphanAlive: processAlive(orphanPid) };
Deno.kill(siblingPid, "SIGKILL");
await sibling;
console.log(JSON.stringify(result));
`;

Deno.test("the reap after a launch ends what it detached, never a child the same process started for other work", async () => {
  const file = await Deno.makeTempFile({ suffix: ".ts" });
  try {
    await Deno.writeTextFile(file, SCRIPT);
    const run = await spawnProcess([Deno.execPath(), "run", "-A", "--quiet", file], {
      env: {
        PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin",
        HOME: Deno.env.get("HOME") ?? "/tmp",
        NO_COLOR: "1",
        ...(Deno.env.get("DENO_DIR") ? { DENO_DIR: Deno.env.get("DENO_DIR")! } : {}),
      },
      timeoutMs: 60_000,
    });
    assert.equal(run.exitCode, 0, run.stderr);
    const out = JSON.parse(run.stdout.trim().split("\n").pop()!);
    if (out.skip) return; // No prctl here: the tree watch alone is tested in the corpus.
    assert.ok(out.orphanPid > 0 && out.siblingPid > 0, run.stdout);
    assert.ok(out.reaped.includes(out.orphanPid), `the detached daemon is ended: ${run.stdout}`);
    assert.equal(out.orphanAlive, false);
    assert.ok(!out.reaped.includes(out.siblingPid), `the sibling is left alone: ${run.stdout}`);
    assert.equal(out.siblingAlive, true);
  } finally {
    await Deno.remove(file);
  }
});
