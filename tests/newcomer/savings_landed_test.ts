/**
 * Parent tokens are avoided only by work that landed: a newcomer read "Parent tokens avoided: 1,200" on a
 * blocked run's report, and the dashboard's totals added up blocked, discarded and still-reviewing runs.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { spot, type SpotEnv, spotEnv, writeEpisode } from "../helpers.ts";
import { demoScenario, prepareScenario } from "../scenario.ts";

const OPT_OUT = ["--sandbox", "none"];
const USAGE = { op: "usage", input: 1000, output: 200, cacheRead: 0, cacheWrite: 0 };

type Savings = {
  estimatedTokensAvoided: number;
  landed: boolean;
  notLandedReason: string | null;
  savingRatio: number | null;
};

/** The dashboard's "Parent tokens avoided" card, from `spot dashboard`'s page. */
async function dashboardAvoided(env: SpotEnv, cwd: string): Promise<string> {
  const file = join(env.dir, "dash.html");
  assert.equal((await spot(env, cwd, "dashboard", "--output", file)).code, 0);
  const page = await Deno.readTextFile(file);
  const card = /Parent tokens avoided<\/div><div class="card-value">([^<]*)</.exec(page);
  assert.ok(card, "the dashboard has the avoided card");
  return card[1];
}

Deno.test("a blocked, a discarded and a reviewing run avoid no parent tokens, in the report and the dashboard", async () => {
  const env = await spotEnv();
  const sc = await demoScenario(env.dir);

  const outOfScope = join(env.dir, "out-of-scope.jsonl");
  await writeEpisode(outOfScope, [{ op: "write", path: "elsewhere.ts", content: "x\n" }, USAGE]);
  const blocked = await prepareScenario(env, { ...sc, episodeFile: outOfScope }, ...OPT_OUT);
  assert.equal((await spot(env, sc.repo, "run", "--id", blocked)).code, 0);
  assert.equal((await spot(env, sc.repo, "verify", "--id", blocked)).code, 4);

  const reviewing = await prepareScenario(env, sc, ...OPT_OUT);
  assert.equal((await spot(env, sc.repo, "run", "--id", reviewing)).code, 0);
  const verified = await spot(env, sc.repo, "verify", "--id", reviewing);
  assert.equal(verified.code, 0);

  const discarded = await prepareScenario(env, sc, ...OPT_OUT);
  assert.equal((await spot(env, sc.repo, "run", "--id", discarded)).code, 0);
  assert.equal((await spot(env, sc.repo, "discard", "--id", discarded)).code, 0);

  // Before any report the dashboard estimates from the worker's usage: still only for landed work.
  assert.equal(await dashboardAvoided(env, sc.repo), "0", "no run landed, so the total avoided is 0");

  const expected: [string, RegExp][] = [
    [blocked, /: 0 \(none counted: the work did not land \(the run is blocked\), so the parent still has it/],
    [
      reviewing,
      /: 0 \(none counted yet: the work has not landed \(the run is \w+\); it counts once integrated\)/,
    ],
    [discarded, /: 0 \(none counted: the work did not land \(the run is discarded\)/],
  ];
  for (const [id, headline] of expected) {
    const report = await spot(env, sc.repo, "report", "--id", id);
    assert.equal(report.code, 0, report.stderr);
    assert.match(String(report.json.headline), /^Parent tokens avoided \(estimate, not an A\/B test\): 0 /);
    assert.match(String(report.json.headline), headline);
    const savings = report.json.parentSavings as Savings;
    assert.equal(savings.estimatedTokensAvoided, 0);
    assert.equal(savings.landed, false);
    // The worker's tokens are still shown as the worker's: they were spent, just not on the parent's behalf.
    assert.ok((report.json.worker as { totalTokens: number }).totalTokens > 0);
    const md = await Deno.readTextFile(String(report.json.reportFile));
    assert.match(md, /\*\*Parent tokens avoided \(estimate, not an A\/B test\): 0 \(none counted/);
    const metrics = JSON.parse(await Deno.readTextFile(String(report.json.metricsFile)));
    assert.deepEqual(metrics.counterfactual.workerUsageCounted, {
      input: 0,
      output: 0,
      cacheRead: 0,
      cacheWrite: 0,
    });
    const parent = await spot(env, sc.repo, "report", "--id", id, "--format", "parent");
    assert.match(
      parent.stdout,
      /^Main-model tokens avoided \(estimate, not an A\/B test\): 0 \(none counted/m,
    );
  }

  assert.equal(await dashboardAvoided(env, sc.repo), "0", "and after the reports");

  // The reviewing run lands: its report from before says "none counted yet", and inspect says it is stale.
  const review = join(env.dir, "review.json");
  const diffSha256 = verified.json.diffSha256;
  const verdict = { schemaVersion: 1, verdict: "approve", diffSha256, findings: [], verificationGaps: [] };
  await Deno.writeTextFile(review, JSON.stringify({ ...verdict, summary: "ok" }));
  const approve = await spot(
    env,
    sc.repo,
    "approve",
    "--id",
    reviewing,
    "--review",
    review,
    "--message",
    "Fix",
  );
  assert.equal(approve.code, 0, approve.stderr);
  assert.equal((await spot(env, sc.repo, "integrate", "--id", reviewing)).code, 0);
  const stale = await spot(env, sc.repo, "inspect", "--id", reviewing);
  assert.match(
    String(stale.json.metricsStale),
    /written while the run was \w+; it is integrated now: spot report/,
  );
  assert.notEqual(await dashboardAvoided(env, sc.repo), "0", "the landed run counts at once, report or not");
  assert.equal((await spot(env, sc.repo, "report", "--id", reviewing)).code, 0);
  assert.equal((await spot(env, sc.repo, "inspect", "--id", reviewing)).json.metricsStale, undefined);
  await Deno.remove(env.dir, { recursive: true });
});
