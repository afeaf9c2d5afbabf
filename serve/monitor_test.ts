import assert from "node:assert/strict";
import { join } from "node:path";
import { spawnProcess } from "../sandbox/spawn.ts";
import { which } from "../sandbox/which.ts";
import { fixtureHome, fixtureState, writeFixtureRun } from "../tests/fixture_runs.ts";
import { monitor, type MonitoredRun, monitoredRuns, paneCommand, shellQuote, tmuxPlan } from "./monitor.ts";

const TMUX = which("tmux", Deno.env.get("PATH") ?? "");

Deno.test("shellQuote() keeps a path with quotes and spaces one word", () => {
  assert.equal(shellQuote("/tmp/a b/it's"), `'/tmp/a b/it'\\''s'`);
});

Deno.test("tmuxPlan() creates the session once, then splits and tiles for each run", () => {
  const run = (id: string): MonitoredRun => ({
    runId: id,
    status: "running",
    log: `/s/${id}/worker.log`,
    why: "active status",
  });
  const plan = tmuxPlan("mon", [run("a"), run("b")], true);
  assert.deepEqual(plan.map((s) => s[0]), [
    "new-session",
    "select-pane",
    "select-layout",
    "split-window",
    "select-pane",
    "select-layout",
    "set-option",
    "set-option",
  ]);
  assert.match(plan[0].at(-1)!, /exec tail -n 100 -F '\/s\/a\/worker.log'/);
  assert.deepEqual(tmuxPlan("mon", [run("c")], false).map((s) => s[0]), [
    "split-window",
    "select-pane",
    "select-layout",
  ]);
  assert.match(paneCommand(run("x")), /^printf/);
});

async function setUtime(path: string, minutesAgo: number): Promise<void> {
  const t = new Date(Date.now() - minutesAgo * 60_000);
  await Deno.utime(path, t, t);
}

Deno.test("monitoredRuns() takes active runs, then runs not ended whose worker.log changed in the last 10 minutes", async () => {
  const h = await fixtureHome();
  try {
    await writeFixtureRun(h.paths, fixtureState("run-active", { status: "reviewing" }));
    await writeFixtureRun(h.paths, fixtureState("run-fresh", { status: "failed" }), { workerLog: "x\n" });
    const stale = await writeFixtureRun(h.paths, fixtureState("run-stale", { status: "failed" }), {
      workerLog: "x\n",
    });
    await setUtime(join(stale, "worker.log"), 11);
    await writeFixtureRun(h.paths, fixtureState("run-done", { status: "integrated" }));
    await Deno.mkdir(join(h.paths.runsDir, "run-nostate"));
    await Deno.writeTextFile(join(h.paths.runsDir, "run-nostate", "worker.log"), "starting\n");
    await writeFixtureRun(h.paths, fixtureState("run-zfresh", { status: "approved" }), { workerLog: "x\n" });
    // Sorts after run-nostate, but active runs come first.
    await writeFixtureRun(h.paths, fixtureState("run-zactive", { status: "running" }));
    const runs = await monitoredRuns(h.paths, h.index);
    // Active first; an ended run (run-fresh failed just now) is not followed, whatever its log's age.
    assert.deepEqual(runs.map((r) => [r.runId, r.status]), [
      ["run-active", "reviewing"],
      ["run-zactive", "running"],
      ["run-nostate", null],
      ["run-zfresh", "approved"],
    ]);
  } finally {
    await h.cleanup();
  }
});

Deno.test({
  name:
    "spot monitor opens one tiled pane per active run in tmux, adds new runs on re-run, and kills its session",
  ignore: TMUX === null && !Deno.env.get("CI"),
  async fn() {
    const socket = `spot-test-${crypto.randomUUID().slice(0, 8)}`;
    const h = await fixtureHome({ PI_MONITOR_SOCKET: socket, PI_MONITOR_SESSION: "mon", TERM: "xterm" });
    const tmux = (...args: string[]) =>
      spawnProcess([TMUX ?? "tmux", "-L", socket, ...args], {
        env: { PATH: Deno.env.get("PATH") ?? "", HOME: h.root, TERM: "xterm" },
        timeoutMs: 10_000,
        reapGroup: false,
      });
    try {
      await writeFixtureRun(h.paths, fixtureState("run-a", { status: "running" }), {
        workerLog: "a says hello\n",
      });
      await writeFixtureRun(h.paths, fixtureState("run-b", { status: "verifying" }), {
        workerLog: "b checks\n",
      });
      await writeFixtureRun(h.paths, fixtureState("run-old", { status: "integrated" }));

      const listed = await monitor({ ...h, list: true });
      assert.deepEqual(listed.runs.map((r) => r.runId), ["run-a", "run-b"]);
      assert.equal((await tmux("has-session", "-t", "mon")).exitCode, 1, "--list starts nothing");

      const first = await monitor({ ...h });
      assert.equal(first.created, true);
      assert.deepEqual(first.added, ["run-a", "run-b"]);
      assert.equal(first.attach, `tmux -L ${socket} attach -t mon`);
      const panes = async () =>
        (await tmux("list-panes", "-t", "mon", "-F", "#{pane_title}")).stdout.trim().split("\n");
      assert.deepEqual(await panes(), ["run-a", "run-b"]);
      const deadline = Date.now() + 5_000;
      let screen = "";
      while (!screen.includes("a says hello") && Date.now() < deadline) {
        screen = (await tmux("capture-pane", "-p", "-t", "mon.0")).stdout;
        await new Promise((r) => setTimeout(r, 100));
      }
      assert.match(screen, /== spot run run-a ==[\s\S]*a says hello/);

      await writeFixtureRun(h.paths, fixtureState("run-c", { status: "prepared" }), { workerLog: "" });
      const again = await monitor({ ...h });
      assert.equal(again.created, false);
      assert.deepEqual(again.added, ["run-c"]);
      assert.deepEqual(await panes(), ["run-a", "run-b", "run-c"]);
      const layout = (await tmux("display-message", "-p", "-t", "mon", "#{window_layout}")).stdout;
      assert.ok(layout.length > 0);
      assert.deepEqual((await monitor({ ...h })).added ?? [], [], "nothing new: it only attaches");

      const killed = await monitor({ ...h, kill: true });
      assert.equal(killed.killed, true);
      assert.notEqual((await tmux("has-session", "-t", "mon")).exitCode, 0);
    } finally {
      await tmux("kill-server");
      await h.cleanup();
    }
  },
});
