import assert from "node:assert/strict";
import { join } from "node:path";
import { fixtureState, settle, writeFixtureRun } from "../tests/fixture_runs.ts";
import { resolvePaths, type SpotPaths } from "./paths.ts";
import { closeRunIndexes, RunIndex, runIndexFor } from "./run_index.ts";
import { RunStore } from "./run_store.ts";
import type { RunState } from "../schemas/run_state.ts";
import { markRun, MARKS_FILE } from "./index_marks.ts";

async function tempPaths(): Promise<{ root: string; paths: SpotPaths }> {
  const root = await Deno.makeTempDir({ prefix: "spot-index-" });
  const paths = resolvePaths((name) => name === "PI_WORKER_STATE_DIR" ? join(root, "state") : root);
  await Deno.mkdir(paths.runsDir, { recursive: true });
  return { root, paths };
}

function ids(index: RunIndex, filter = {}): string[] {
  return index.summaries(filter).map((s) => (s as { runId: string }).runId);
}

async function withIndex(fn: (paths: SpotPaths, index: RunIndex) => Promise<void>): Promise<void> {
  const { root, paths } = await tempPaths();
  const index = RunIndex.open(paths);
  try {
    await fn(paths, index);
  } finally {
    index.close();
    closeRunIndexes();
    await Deno.remove(root, { recursive: true });
  }
}

Deno.test("refresh() builds a missing index from the run directories", async () => {
  await withIndex(async (paths, index) => {
    await writeFixtureRun(paths, fixtureState("run-a", {}, "2025-01-01T00:00:01.000Z"));
    await writeFixtureRun(paths, fixtureState("run-b", { status: "failed" }, "2025-01-01T00:00:02.000Z"));
    assert.deepEqual(ids(index), []);
    await index.refresh();
    assert.deepEqual(ids(index), ["run-b", "run-a"]);
    assert.deepEqual(ids(index, { status: "failed" }), ["run-b"]);
  });
});

Deno.test("refresh() does not reread run directories when the runs folder is unchanged", async () => {
  await withIndex(async (paths, index) => {
    await writeFixtureRun(paths, fixtureState("run-a"));
    await settle(paths.runsDir);
    await index.refresh();
    // A hand edit that bypasses save() is invisible while the folder has not changed: no reread happened.
    await Deno.writeTextFile(
      join(paths.runsDir, "run-a", "state.json"),
      JSON.stringify(fixtureState("run-a", { status: "blocked" })),
    );
    await index.refresh();
    assert.deepEqual(index.summaries().map((s) => (s as { status: string }).status), ["integrated"]);
    // Once the folder changes (a new run), the rebuild sees both the new run and the edit.
    await writeFixtureRun(paths, fixtureState("run-b", {}, "2025-01-02T00:00:00.000Z"));
    await index.refresh();
    assert.deepEqual(index.summaries().map((s) => (s as { status: string }).status), [
      "integrated",
      "blocked",
    ]);
  });
});

Deno.test("a save marks its run, and the next refresh rereads it without a rebuild", async () => {
  await withIndex(async (paths) => {
    await writeFixtureRun(paths, fixtureState("run-a", { status: "prepared" }));
    await writeFixtureRun(paths, fixtureState("run-b", { status: "prepared" }, "2025-01-01T00:00:02.000Z"));
    const store = new RunStore(paths);
    const shared = runIndexFor(paths);
    await shared.refresh();
    await settle(paths.runsDir);
    await shared.refresh();
    await store.save(fixtureState("run-a", { status: "running" }));
    // A hand edit without a save is not a mark: only the marked run is reread (no rebuild happened).
    await Deno.writeTextFile(
      join(paths.runsDir, "run-b", "state.json"),
      JSON.stringify(fixtureState("run-b", { status: "blocked" }, "2025-01-01T00:00:02.000Z")),
    );
    await shared.refresh();
    const status = (id: string) =>
      (shared.summaries().find((s) => (s as { runId: string }).runId === id) as { status: string }).status;
    assert.equal(status("run-a"), "running");
    assert.equal(status("run-b"), "prepared");
    // A second save is read the same way.
    await store.save(fixtureState("run-a", { status: "verifying" }));
    await shared.refresh();
    assert.equal(status("run-a"), "verifying");
  });
});

Deno.test("a save cut after its write, before its second mark, is reread from its first", async () => {
  await withIndex(async (paths, index) => {
    await writeFixtureRun(paths, fixtureState("run-a", { status: "running" }));
    await settle(paths.runsDir);
    await index.refresh();
    // What save() does up to a crash: the mark, then the new state.json, and no mark after it.
    markRun(paths, "run-a");
    await Deno.writeTextFile(
      join(paths.runsDir, "run-a", "state.json"),
      JSON.stringify(fixtureState("run-a", { status: "verifying" })),
    );
    await index.refresh();
    assert.deepEqual((index.summaries()[0] as { status: string }).status, "verifying");
  });
});

Deno.test("a reader that took a save's first mark before the write rereads the run at its second", async () => {
  await withIndex(async (paths, index) => {
    await writeFixtureRun(paths, fixtureState("run-a", { status: "running" }));
    await settle(paths.runsDir);
    await index.refresh();
    markRun(paths, "run-a");
    await index.refresh(); // between the mark and the write: the old state is read
    assert.deepEqual((index.summaries()[0] as { status: string }).status, "running");
    await Deno.writeTextFile(
      join(paths.runsDir, "run-a", "state.json"),
      JSON.stringify(fixtureState("run-a", { status: "verifying" })),
    );
    markRun(paths, "run-a");
    await index.refresh();
    assert.deepEqual((index.summaries()[0] as { status: string }).status, "verifying");
  });
});

Deno.test("a torn mark is skipped, the marks around it are read, and a replaced marks file is read anew", async () => {
  await withIndex(async (paths, index) => {
    await writeFixtureRun(paths, fixtureState("run-a", { status: "running" }, "2025-01-01T00:00:01.000Z"));
    await writeFixtureRun(paths, fixtureState("run-b", { status: "running" }, "2025-01-01T00:00:02.000Z"));
    await settle(paths.runsDir);
    await index.refresh();
    const edit = (id: string, status: RunState["status"]) =>
      Deno.writeTextFile(join(paths.runsDir, id, "state.json"), JSON.stringify(fixtureState(id, { status })));
    const status = (id: string) =>
      (index.summaries().find((s) => (s as { runId: string }).runId === id) as { status: string }).status;
    await edit("run-a", "verifying");
    await edit("run-b", "verifying");
    const marks = join(paths.stateRoot, MARKS_FILE);
    await Deno.writeTextFile(marks, "run-", { append: true }); // a writer killed inside its line
    markRun(paths, "run-a");
    await Deno.writeTextFile(marks, "\nrun-b", { append: true }); // a line not finished yet: read next time
    await index.refresh();
    assert.equal(status("run-a"), "verifying");
    assert.equal(status("run-b"), "running");
    await Deno.writeTextFile(marks, "\n", { append: true });
    await index.refresh();
    assert.equal(status("run-b"), "verifying");
    // The file replaced (another inode, shorter): read from its start.
    await edit("run-a", "reviewing");
    await Deno.remove(marks);
    markRun(paths, "run-a");
    await index.refresh();
    assert.equal(status("run-a"), "reviewing");
  });
});

Deno.test("a corrupt or foreign state.json is skipped and the other runs are listed", async () => {
  await withIndex(async (paths, index) => {
    await writeFixtureRun(paths, fixtureState("run-good"));
    for (
      const [name, text] of [["run-torn", '{"runId": "run-to'], ["run-null", "null"], ["run-arr", "[1]"]]
    ) {
      await Deno.mkdir(join(paths.runsDir, name));
      await Deno.writeTextFile(join(paths.runsDir, name, "state.json"), text);
    }
    await writeFixtureRun(paths, fixtureState("run-other-name"));
    await Deno.rename(join(paths.runsDir, "run-other-name"), join(paths.runsDir, "run-renamed"));
    await Deno.mkdir(join(paths.runsDir, "run-empty"));
    await index.refresh();
    assert.deepEqual(ids(index), ["run-good"]);
  });
});

Deno.test("an index file that is not a database is replaced and rebuilt", async () => {
  const { root, paths } = await tempPaths();
  try {
    await writeFixtureRun(paths, fixtureState("run-a"));
    await Deno.writeTextFile(join(paths.stateRoot, "run-index.sqlite"), "this is not sqlite ".repeat(200));
    const index = RunIndex.open(paths);
    await index.refresh();
    assert.deepEqual(ids(index), ["run-a"]);
    index.close();
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("a run directory removed by hand leaves the index at the next refresh", async () => {
  await withIndex(async (paths, index) => {
    await writeFixtureRun(paths, fixtureState("run-a"));
    await writeFixtureRun(paths, fixtureState("run-b"));
    await index.refresh();
    await Deno.remove(join(paths.runsDir, "run-a"), { recursive: true });
    await index.refresh();
    assert.deepEqual(ids(index), ["run-b"]);
  });
});

Deno.test("page() is newest first, filtered and paginated, and totals() sums every run", async () => {
  await withIndex(async (paths, index) => {
    for (let i = 0; i < 7; i++) {
      const at = `2025-01-0${i + 1}T00:00:00.000Z`;
      await writeFixtureRun(
        paths,
        fixtureState(`run-${i}`, {
          caller: i % 2 ? "codex" : "cli",
          status: i === 6 ? "blocked" : "integrated",
        }, at),
      );
    }
    await writeFixtureRun(
      paths,
      fixtureState("run-metered", { lastReportAt: "2025-02-01T00:00:00.000Z" }, "2025-02-01T00:00:00.000Z"),
      {
        metrics: { parentSavings: { estimatedTokensAvoided: 5000, parentTokensSpent: 1000 } },
      },
    );
    await index.refresh();
    assert.deepEqual(index.page({ limit: 3 }).map((e) => e.summary.runId), ["run-metered", "run-6", "run-5"]);
    assert.deepEqual(index.page({ limit: 3, offset: 3 }).map((e) => e.summary.runId), [
      "run-4",
      "run-3",
      "run-2",
    ]);
    assert.deepEqual(index.page({ caller: "codex" }).map((e) => e.summary.runId), [
      "run-5",
      "run-3",
      "run-1",
    ]);
    assert.deepEqual(index.count({ caller: "codex" }), 3);
    const totals = index.totals();
    assert.deepEqual(totals.runs, 8);
    assert.deepEqual(totals.byCaller, { cli: 5, codex: 3 });
    assert.deepEqual(totals.byStatus, { blocked: 1, integrated: 7 });
    assert.deepEqual(totals.tokensIn, 8 * 1200);
    assert.deepEqual(totals.metered, { runs: 1, parentTokensSpent: 1000, tokensAvoided: 5000 });
    assert(index.page()[0].goal?.includes("run-metered"));
  });
});

Deno.test("an index written by another schema version is dropped and rebuilt", async () => {
  await withIndex(async (paths, index) => {
    await writeFixtureRun(paths, fixtureState("run-a"));
    await index.refresh();
    const { DatabaseSync } = await import("node:sqlite");
    const db = new DatabaseSync(join(paths.stateRoot, "run-index.sqlite"));
    db.exec("UPDATE meta SET value = '0' WHERE key = 'schema'");
    db.close();
    const again = RunIndex.open(paths);
    assert.deepEqual(ids(again), []);
    await again.refresh();
    assert.deepEqual(ids(again), ["run-a"]);
    again.close();
  });
});

Deno.test("only landed runs add to the avoided total, whatever a report made earlier said", async () => {
  await withIndex(async (paths, index) => {
    const reported = { lastReportAt: "2025-02-01T00:00:00.000Z" };
    // An older spot counted a blocked run; a report made while under way counted nothing yet.
    const older = { parentSavings: { estimatedTokensAvoided: 5000, parentTokensSpent: 1000 } };
    const early = { parentSavings: { estimatedTokensAvoided: 0, landed: false, parentTokensSpent: 10 } };
    await writeFixtureRun(paths, fixtureState("run-blocked", { status: "blocked", ...reported }), {
      metrics: older,
    });
    await writeFixtureRun(paths, fixtureState("run-reviewing", { status: "reviewing" }));
    await writeFixtureRun(paths, fixtureState("run-landed-later", reported), { metrics: early });
    await index.refresh();
    const avoided = Object.fromEntries(index.page().map((e) => [e.summary.runId, e.tokensAvoided]));
    // The fixture's worker used 1900 tokens (1200 in, 400 cache read, 300 out).
    assert.deepEqual(avoided, { "run-blocked": 0, "run-reviewing": 0, "run-landed-later": 1900 });
    assert.equal(index.totals().tokensAvoided, 1900);
    // The blocked run's parent spend still counts: the parent spent it on a delegation that gave nothing.
    assert.deepEqual(index.totals().metered, { runs: 2, parentTokensSpent: 1010, tokensAvoided: 1900 });
  });
});

Deno.test("a marks file grown past its bound is emptied and every run directory compared", async () => {
  await withIndex(async (paths, index) => {
    await writeFixtureRun(paths, fixtureState("run-a", { status: "running" }));
    await settle(paths.runsDir);
    await index.refresh();
    await Deno.writeTextFile(
      join(paths.runsDir, "run-a", "state.json"),
      JSON.stringify(fixtureState("run-a", { status: "verifying" })),
    );
    // Years of saves: far more marks than a refresh reads; the run that changed is among none of them.
    const marks = join(paths.stateRoot, MARKS_FILE);
    await Deno.writeTextFile(marks, "\nrun-zz-not-there\n".repeat(300_000));
    await index.refresh();
    assert.deepEqual((index.summaries()[0] as { status: string }).status, "verifying");
    assert.equal((await Deno.stat(marks)).size, 0);
    markRun(paths, "run-a");
    await index.refresh();
    assert.deepEqual((index.summaries()[0] as { status: string }).status, "verifying");
  });
});
