import assert from "node:assert/strict";
import { fixtureHome, fixtureState, writeFixtureRun } from "./fixture_runs.ts";
import { createContext } from "../config/context.ts";
import { DEFAULT_LIST_LIMIT, listRuns } from "../verbs/query.ts";

Deno.test("listRuns() pages the runs newest first, counts all of them, and shows all on request", async () => {
  const home = await fixtureHome();
  for (let i = 0; i < 7; i++) {
    const state = fixtureState(`run-page-${i}`, { createdAt: `2026-11-0${i + 1}T10:00:00.000Z` });
    await writeFixtureRun(home.paths, state);
  }
  const ctx = await createContext({ env: home.env });
  const page = await listRuns(ctx, { limit: 3 });
  assert.deepEqual(page.runs.map((r) => (r as { runId: string }).runId), [
    "run-page-6",
    "run-page-5",
    "run-page-4",
  ]);
  assert.deepEqual([page.count, page.total, page.limit], [3, 7, 3]);
  const older = await listRuns(ctx, { limit: 3, offset: 3 });
  assert.deepEqual(older.runs.map((r) => (r as { runId: string }).runId), [
    "run-page-3",
    "run-page-2",
    "run-page-1",
  ]);
  const all = await listRuns(ctx, { all: true });
  assert.deepEqual([all.count, all.total, all.limit], [7, 7, null]);
  assert.equal((await listRuns(ctx, {})).limit, DEFAULT_LIST_LIMIT);
  await home.cleanup();
});
