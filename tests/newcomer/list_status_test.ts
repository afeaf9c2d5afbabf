/**
 * `spot list --status` takes only a status a run can be in: a misspelt one (`--status weird`) matched no
 * run and printed an empty list, which read as "no runs". It is a usage error naming the statuses there are,
 * on the command line and in the library alike (MCP's schema already holds the enum).
 */
import assert from "node:assert/strict";
import { spot, spotEnv } from "../helpers.ts";
import { fixtureState, writeFixtureRun } from "../fixture_runs.ts";
import { resolvePaths } from "../../store/paths.ts";
import { createContext } from "../../config/context.ts";
import { listRuns } from "../../verbs/query.ts";
import { isSpotError } from "../../errors.ts";
import { RUN_STATUSES } from "../../schemas/constants.ts";

Deno.test("spot list --status refuses an unknown status with CLI_USAGE naming the valid ones", async () => {
  const env = await spotEnv();
  const refused = await spot(env, env.dir, "list", "--status", "weird");
  assert.equal(refused.code, 2, refused.stderr);
  const error = refused.json.error as { code: string; message: string; details: { statuses: string[] } };
  assert.equal(error.code, "CLI_USAGE");
  assert.match(error.message, /"weird"/);
  for (const status of RUN_STATUSES) {
    assert.ok(error.message.includes(status), `${status} in ${error.message}`);
  }
  assert.deepEqual(error.details.statuses, [...RUN_STATUSES]);
  assert.equal(refused.stdout, "", "nothing on stdout: no empty list to misread");

  await writeFixtureRun(resolvePaths((n) => env.env[n]), fixtureState("run-listed"));
  const ok = await spot(env, env.dir, "list", "--status", "integrated");
  assert.equal(ok.code, 0, ok.stderr);
  assert.equal(ok.json.count, 1);
  await Deno.remove(env.dir, { recursive: true });
});

Deno.test("listRuns() refuses an unknown status in the library too", async () => {
  const env = await spotEnv();
  const ctx = await createContext({ env: (n) => env.env[n] });
  await assert.rejects(
    () => listRuns(ctx, { status: "Failed" }),
    (e) => isSpotError(e, "CLI_USAGE") && /expected one of prepared, running/.test(e.message),
  );
  await Deno.remove(env.dir, { recursive: true });
});
