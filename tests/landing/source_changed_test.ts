/**
 * One cause, one code: a checkout that moved since prepare is SOURCE_CHANGED at verify, at approve and at
 * integrate alike, each time with the HEAD the run was prepared on, the HEAD now, and what to do.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { makeRepo, sh, spot, spotEnv, writeEpisode, writeJson } from "../helpers.ts";
import { contract } from "./helpers.ts";

interface Moved {
  code: string;
  message: string;
  details: { source: { before: { head: string }; now: { head: string } }; hint: string };
}

Deno.test("a moved source is SOURCE_CHANGED at verify, approve and integrate, with both HEADs and a hint", async () => {
  const env = await spotEnv({ sandbox: "none" });
  const repo = await makeRepo({ "a.txt": "a\n", "b.txt": "b\n", "c.txt": "c\n" }, env.dir);
  const before = await sh(repo, "git", "rev-parse", "HEAD");
  const ids: Record<string, string> = {};
  const review = async (id: string, diffSha256: unknown) => {
    const file = join(env.dir, `review-${id}.json`);
    await writeJson(file, {
      schemaVersion: 1,
      verdict: "approve",
      diffSha256,
      findings: [],
      verificationGaps: [],
      summary: "ok",
    });
    return file;
  };
  for (const name of ["a", "b", "c"]) {
    const task = await contract(env, name, { allowed: [`${name}.txt`], checks: [["true"]] });
    const episode = join(env.dir, `${name}.jsonl`);
    await writeEpisode(episode, [{ op: "write", path: `${name}.txt`, content: `${name}${name}\n` }]);
    const prep = await spot(env, repo, "prepare", "--task", task, "--profile", "replay", "--model", episode);
    assert.equal(prep.code, 0, prep.stderr);
    ids[name] = String(prep.json.runId);
    assert.equal((await spot(env, repo, "run", "--id", ids[name])).code, 0);
  }
  // b is verified, c approved, before the user commits.
  const vb = await spot(env, repo, "verify", "--id", ids.b);
  const vc = await spot(env, repo, "verify", "--id", ids.c);
  const ac = await spot(
    env,
    repo,
    "approve",
    "--id",
    ids.c,
    "--review",
    await review(ids.c, vc.json.diffSha256),
    "--message",
    "c",
  );
  assert.equal(ac.code, 0, ac.stderr);

  await Deno.writeTextFile(join(repo, "user.txt"), "the user's own work\n");
  await sh(repo, "git", "add", "user.txt");
  await sh(repo, "git", "commit", "-q", "-m", "the user moved on");
  const after = await sh(repo, "git", "rev-parse", "HEAD");

  const verify = await spot(env, repo, "verify", "--id", ids.a);
  const approve = await spot(
    env,
    repo,
    "approve",
    "--id",
    ids.b,
    "--review",
    await review(ids.b, vb.json.diffSha256),
    "--message",
    "b",
  );
  const integrate = await spot(env, repo, "integrate", "--id", ids.c);
  for (const [verb, r] of [["verify", verify], ["approve", approve], ["integrate", integrate]] as const) {
    assert.equal(r.code, 4, `${verb}: ${r.stdout}${r.stderr}`);
    const error = r.json.error as Moved;
    assert.equal(error.code, "SOURCE_CHANGED", `${verb}: ${error.message}`);
    assert.match(error.message, /changed since prepare: HEAD moved from [0-9a-f]{12} to [0-9a-f]{12}/, verb);
    assert.equal(error.details.source.before.head, before, verb);
    assert.equal(error.details.source.now.head, after, verb);
    assert.match(error.details.hint, /prepare the task again/, verb);
  }
  assert.match((integrate.json.error as Moved).details.hint, /git cherry-pick [0-9a-f]{12}/);
  assert.match((verify.json.error as Moved).details.hint, new RegExp(`spot diff --id ${ids.a}`));
  assert.equal(await sh(repo, "git", "rev-parse", "HEAD"), after, "something landed");
  await Deno.remove(env.dir, { recursive: true });
});
