/**
 * Integrate takes verify's result as the landed tree's only when it is the same bytes with the same checks
 * (gates/landed_as_verified.ts): then the approved commit itself lands and its checks do not run again.
 * Each check here appends a line to a file outside the repository (no OS sandbox), so the test counts how
 * often the checks ran. When any condition does not hold (the recorded tree is not the commit's, the record
 * predates the checks' digest, the checks changed), the checks run again in a scratch tree (and one that fails
 * there blocks the landing: tests/git_gates_test.ts).
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { makeRepo, sh, spot, spotEnv } from "../helpers.ts";
import { committedRun, contract, lengthenStoredChecks, runState } from "./helpers.ts";

async function setup() {
  const env = await spotEnv({ sandbox: "none" });
  env.env.PATH = `/usr/bin:/bin:${env.env.PATH}`;
  const repo = await makeRepo({ "value.txt": "1\n", "README.md": "# r\n" }, env.dir);
  const count = join(env.dir, "check-runs.txt");
  await Deno.writeTextFile(count, "");
  const task = await contract(env, "value", {
    allowed: ["value.txt"],
    checks: [["sh", "-c", `echo run >> '${count}' && test "$(cat value.txt)" -ge 2`]],
  });
  const runs = async () => (await Deno.readTextFile(count)).split("\n").filter(Boolean).length;
  const post = async (id: string) =>
    JSON.parse(await Deno.readTextFile(join(env.stateDir, "runs", id, "post-integration-verification.json")));
  return { env, repo, task, runs, post };
}

Deno.test("integrate lands the approved commit itself when it is the tree verify checked, without checking it again", async () => {
  const { env, repo, task, runs, post } = await setup();
  const head = await sh(repo, "git", "rev-parse", "HEAD");
  const id = await committedRun(env, repo, task, { "value.txt": "2\n" });
  assert.equal(await runs(), 1, "verify ran the check once");
  const integrate = await spot(env, repo, "integrate", "--id", id);
  assert.equal(integrate.code, 0, integrate.stdout + integrate.stderr);
  const state = await runState(env, id);
  assert.equal(
    integrate.json.integratedCommit,
    state.implementationCommit,
    "the approved commit itself landed",
  );
  assert.equal(integrate.json.checksReused, true, "the result says verify's checks stood");
  assert.equal(await sh(repo, "git", "rev-parse", "HEAD^"), head);
  assert.equal(await runs(), 1, "the checks did not run again");
  const record = await post(id);
  assert.equal(record.passed, true);
  assert.equal(record.reused, "verification.json");
  assert.equal(record.commit, integrate.json.integratedCommit);
  assert.equal(record.tree, await sh(repo, "git", "rev-parse", "HEAD^{tree}"));
  assert.equal(await sh(repo, "git", "status", "--porcelain"), "");
  await Deno.remove(env.dir, { recursive: true });
});

/** What is done to the run's records between approve and integrate, so verify's result no longer stands. */
const TAMPERINGS: [string, (run: string) => Promise<void>][] = [
  ["the recorded tree is not the commit's", async (run) => {
    const file = join(run, "verification.json");
    const v = JSON.parse(await Deno.readTextFile(file));
    await Deno.writeTextFile(
      file,
      JSON.stringify({ ...v, tree: "4b825dc642cb6eb9a060e54bf8d69288fbee4904" }),
    );
  }],
  ["the record predates the checks' digest", async (run) => {
    const file = join(run, "verification.json");
    const { checksDigest: _, ...v } = JSON.parse(await Deno.readTextFile(file));
    await Deno.writeTextFile(file, JSON.stringify(v));
  }],
  ["the checks changed since verify", lengthenStoredChecks],
];

for (const [what, tamper] of TAMPERINGS) {
  Deno.test(`integrate checks the landed commit again when ${what}`, async () => {
    const { env, repo, task, runs, post } = await setup();
    const id = await committedRun(env, repo, task, { "value.txt": "2\n" });
    await tamper(join(env.stateDir, "runs", id));
    const integrate = await spot(env, repo, "integrate", "--id", id);
    assert.equal(integrate.code, 0, integrate.stdout + integrate.stderr);
    assert.equal(await runs(), 2, "the checks ran again at integration");
    assert.equal(integrate.json.checksReused, undefined);
    const record = await post(id);
    assert.equal(record.reused, undefined);
    assert.equal(record.commands.length, 1);
    assert.equal(record.commit, integrate.json.integratedCommit);

    await Deno.remove(env.dir, { recursive: true });
  });
}
