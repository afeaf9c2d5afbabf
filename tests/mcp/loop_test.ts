/**
 * The acceptance of issue 15's MCP part: a real client over stdio drives prepare → run → verify → approve →
 * integrate → report with the replay worker and gets what the CLI prints for the same loop; a bad contract
 * is CONTRACT_INVALID with the CLI's line:col; a refusal of the CLI's is the same refusal here.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { spot, spotEnv, writeJson } from "../helpers.ts";
import { demoScenario } from "../scenario.ts";
import { connect } from "./client.ts";

/** A value's shape: its keys and their types, recursively (ids, hashes and times differ run to run). */
function shape(value: unknown): unknown {
  if (Array.isArray(value)) return value.length === 0 ? [] : [shape(value[0])];
  if (value && typeof value === "object") {
    return Object.fromEntries(
      Object.keys(value).sort().map((k) => [k, shape((value as Record<string, unknown>)[k])]),
    );
  }
  return value === null ? "null" : typeof value;
}

const review = (diffSha256: unknown) => ({
  schemaVersion: 1,
  verdict: "approve",
  diffSha256,
  findings: [],
  verificationGaps: [],
  summary: "checks pass",
});

/** Fields that must be equal between the two loops, by step. */
const SAME: Record<string, string[]> = {
  prepare: ["ok", "command", "status", "profile", "adapter", "sourceDirty"],
  run: ["ok", "command", "status"],
  verify: ["ok", "command", "passed", "status", "reviewTier", "diffSha256"],
  approve: ["ok", "command", "status"],
  integrate: ["ok", "command", "status", "pushed"],
  report: ["ok", "command", "headline"],
};

Deno.test("an MCP client drives the loop over stdio and gets the CLI's JSON, progress and resources", async () => {
  const env = await spotEnv();
  // The same scenario twice: once through the CLI, once through MCP.
  const viaCli = await demoScenario(await Deno.makeTempDir({ dir: env.dir }));
  const viaMcp = await demoScenario(await Deno.makeTempDir({ dir: env.dir }));
  const cli: Record<string, Record<string, unknown>> = {};
  const args = ["--profile", "replay", "--model", viaCli.episodeFile];
  cli.prepare = (await spot(env, viaCli.repo, "prepare", "--task", viaCli.taskFile, ...args)).json;
  const cliId = String(cli.prepare.runId);
  cli.run = (await spot(env, viaCli.repo, "run", "--id", cliId)).json;
  cli.verify = (await spot(env, viaCli.repo, "verify", "--id", cliId)).json;
  const reviewFile = join(env.dir, "review.json");
  await writeJson(reviewFile, review(cli.verify.diffSha256));
  cli.approve =
    (await spot(env, viaCli.repo, "approve", "--id", cliId, "--review", reviewFile, "--message", "Fix add()"))
      .json;
  cli.integrate = (await spot(env, viaCli.repo, "integrate", "--id", cliId)).json;
  cli.report = (await spot(env, viaCli.repo, "report", "--id", cliId)).json;

  const client = await connect(env, viaMcp.repo);
  try {
    const task = JSON.parse(await Deno.readTextFile(viaMcp.taskFile));
    const mcp: Record<string, Record<string, unknown>> = {};
    const prep = await client.call("spot_prepare", { task, profile: "replay", model: viaMcp.episodeFile });
    assert.equal(prep.isError, false, prep.text);
    mcp.prepare = prep.json;
    const id = String(mcp.prepare.runId);
    const run = await client.call("spot_run", { runId: id, detach: false });
    assert.equal(run.isError, false, run.text);
    mcp.run = run.json;
    assert.ok(run.progress.length > 0, "a blocking run sends progress notifications");
    const verify = await client.call("spot_verify", { runId: id });
    mcp.verify = verify.json;
    const approve = await client.call("spot_approve", {
      runId: id,
      review: review(mcp.verify.diffSha256),
      message: "Fix add()",
    });
    assert.equal(approve.isError, false, approve.text);
    mcp.approve = approve.json;
    mcp.integrate = (await client.call("spot_integrate", { runId: id })).json;
    const report = await client.call("spot_report", { runId: id });
    mcp.report = report.json;

    for (const step of Object.keys(SAME)) {
      assert.deepEqual(shape(mcp[step]), shape(cli[step]), `${step}: the same keys and types as the CLI's`);
      for (const key of SAME[step]) {
        assert.deepEqual(mcp[step][key], cli[step][key], `${step}.${key}`);
      }
    }
    assert.equal(mcp.integrate.status, "integrated");
    assert.match(await Deno.readTextFile(join(viaMcp.repo, "add.ts")), /a \+ b/);
    // The text content is the same JSON, for a client that reads only text.
    assert.deepEqual(JSON.parse(report.text), report.json);

    const parent = await client.call("spot_report", { runId: id, format: "parent" });
    assert.equal(parent.text, String(parent.json.parentText));
    const resource = await client.client.readResource({ uri: `spot://runs/${id}/report.md` });
    const contents = resource.contents[0] as { text: string };
    assert.equal(contents.text, await Deno.readTextFile(join(env.stateDir, "runs", id, "report.md")));
    const verification = await client.client.readResource({ uri: `spot://runs/${id}/verification.json` });
    assert.equal(JSON.parse((verification.contents[0] as { text: string }).text).passed, true);
    const listed = await client.client.listResources();
    assert.ok(listed.resources.some((r) => r.uri === `spot://runs/${id}/report.md`));
    await assert.rejects(
      client.client.readResource({ uri: "spot://runs/..%2Fx/report.md" }),
      /RUN_NOT_FOUND/,
    );
  } finally {
    await client.close();
  }
});

Deno.test("a bad contract through MCP is CONTRACT_INVALID with the CLI's problems at the same line:col", async () => {
  const env = await spotEnv();
  const sc = await demoScenario(env.dir);
  const task = JSON.parse(await Deno.readTextFile(sc.taskFile));
  const bad = { ...task, verification: [{ argv: "deno test", timeoutSeconds: 120 }], extra: true };
  const badFile = join(env.dir, "bad.json");
  await writeJson(badFile, bad);
  const cli = await spot(
    env,
    sc.repo,
    "prepare",
    "--task",
    badFile,
    "--profile",
    "replay",
    "--model",
    sc.episodeFile,
  );
  assert.equal(cli.code, 2);
  const cliError = cli.json.error as { code: string; message: string };
  const client = await connect(env, sc.repo);
  try {
    const r = await client.call("spot_prepare", { task: bad, profile: "replay", model: sc.episodeFile });
    assert.equal(r.isError, true);
    const error = r.json.error as { code: string; message: string; details: { file: string } };
    assert.equal(error.code, "CONTRACT_INVALID");
    const located = (message: string, file: string) =>
      message.split("\n").slice(1).map((l) => l.replace(file, "FILE"));
    assert.ok(
      located(error.message, error.details.file).some((l) => /^FILE:\d+:\d+ /.test(l)),
      error.message,
    );
    assert.deepEqual(located(error.message, error.details.file), located(cliError.message, badFile));
    assert.deepEqual(JSON.parse(r.text), r.json, "the text is the CLI's error JSON");
    // Nothing was prepared, as with the CLI.
    const list = await client.call("spot_list", {});
    assert.equal(list.json.count, 0);
  } finally {
    await client.close();
  }
});
