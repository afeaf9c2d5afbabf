/**
 * `spot list` shows runs newest first everywhere: the piped JSON, `--json` and the terminal table, and the
 * footer of a page says the order the rows are in (a newcomer read "newest first" over a table printed oldest
 * first).
 */
import assert from "node:assert/strict";
import { spot, spotEnv } from "../helpers.ts";
import { fixtureState, writeFixtureRun } from "../fixture_runs.ts";
import { resolvePaths } from "../../store/paths.ts";
import { runUnderPty } from "../output/pty.ts";

Deno.test("spot list: the JSON, --json and the table all list the newest run first", async () => {
  const env = await spotEnv();
  const paths = resolvePaths((n) => env.env[n]);
  for (const [i, id] of ["run-old", "run-mid", "run-new"].entries()) {
    await writeFixtureRun(paths, fixtureState(id, {}, `2026-03-0${i + 1}T10:00:00.000Z`));
  }
  const piped = await spot(env, env.dir, "list", "--limit", "2");
  assert.equal(piped.code, 0, piped.stderr);
  const ids = (piped.json.runs as { runId: string }[]).map((r) => r.runId);
  assert.deepEqual(ids, ["run-new", "run-mid"]);
  assert.deepEqual([piped.json.count, piped.json.total, piped.json.offset], [2, 3, 0]);

  const older = await spot(env, env.dir, "list", "--limit", "2", "--offset", "2");
  assert.deepEqual((older.json.runs as { runId: string }[]).map((r) => r.runId), ["run-old"]);

  const table = await runUnderPty(env, ["list", "--limit", "2"]);
  assert.equal(table.code, 0, table.output);
  const rows = table.output.split("\n").filter((l) => l.startsWith("run-")).map((l) => l.split(/\s+/)[0]);
  assert.deepEqual(rows, ["run-new", "run-mid"], table.output);
  assert.match(table.output, /runs 1-2 of 3, newest first/);
  const all = await runUnderPty(env, ["list"]);
  assert.deepEqual(
    all.output.split("\n").filter((l) => l.startsWith("run-")).map((l) => l.split(/\s+/)[0]),
    ["run-new", "run-mid", "run-old"],
  );
  assert.match(all.output, /^3 runs, newest first$/m);
  const json = await runUnderPty(env, ["list", "--limit", "2", "--json"]);
  assert.deepEqual(JSON.parse(json.output).runs.map((r: { runId: string }) => r.runId), ids);
  await Deno.remove(env.dir, { recursive: true });
});
