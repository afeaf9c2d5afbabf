/**
 * Every verb of the loop refuses an ended run with STATE_INVALID that says how it ended and names only
 * commands that still work on it: a newcomer was told to `spot verify` a discarded run, which then failed.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { type CliResult, spot, spotEnv, writeEpisode, writeJson } from "../helpers.ts";
import { demoScenario, prepareScenario } from "../scenario.ts";

const OPT_OUT = ["--sandbox", "none"];

function refusal(r: CliResult, label: string) {
  assert.equal(r.code, 6, `${label}: ${r.stderr}`);
  const error = r.json.error as { code: string; message: string; details: Record<string, unknown> };
  assert.equal(error.code, "STATE_INVALID", label);
  return error;
}

Deno.test("an ended run's STATE_INVALID says how it ended and names only commands that work on it", async () => {
  const env = await spotEnv();
  const sc = await demoScenario(env.dir);
  const review = join(env.dir, "review.json");
  await writeJson(review, {
    schemaVersion: 1,
    verdict: "revise",
    diffSha256: "a".repeat(64),
    findings: [{
      priority: "P2",
      file: "add.ts",
      line: 1,
      problem: "p",
      evidence: "e",
      requiredChange: "c",
    }],
    verificationGaps: [],
    summary: "s",
  });
  const verbs: string[][] = [
    ["run"],
    ["verify"],
    ["self-review"],
    ["diff"],
    ["revise", "--review", review],
    ["approve", "--review", review, "--message", "m"],
    ["integrate"],
  ];

  const discarded = await prepareScenario(env, sc, ...OPT_OUT);
  assert.equal((await spot(env, sc.repo, "run", "--id", discarded)).code, 0);
  assert.equal((await spot(env, sc.repo, "discard", "--id", discarded)).code, 0);

  const blockedEpisode = join(env.dir, "out-of-scope.jsonl");
  await writeEpisode(blockedEpisode, [{ op: "write", path: "elsewhere.ts", content: "x\n" }]);
  const blockedSc = { ...sc, episodeFile: blockedEpisode };
  const blocked = await prepareScenario(env, blockedSc, ...OPT_OUT);
  assert.equal((await spot(env, sc.repo, "run", "--id", blocked)).code, 0);
  assert.equal((await spot(env, sc.repo, "verify", "--id", blocked)).code, 4);

  for (const [runId, status] of [[discarded, "discarded"], [blocked, "blocked"]]) {
    const offered = new Set<string>();
    for (const [verb, ...rest] of verbs) {
      if (verb === "diff" && status === "blocked") {
        // Blocked at verify, it has a verified diff, and showing it is what a person wants.
        assert.equal((await spot(env, sc.repo, "diff", "--id", runId)).code, 0);
        continue;
      }
      const error = refusal(await spot(env, sc.repo, verb, "--id", runId, ...rest), `${verb} on ${status}`);
      assert.match(error.message, new RegExp(status), `${verb}: ${error.message}`);
      assert.doesNotMatch(error.message, /not been verified yet/, verb);
      assert.equal(error.details.nextCommand, undefined, `${verb} must not name a next step of the loop`);
      assert.equal(error.details.ended, true, verb);
      const commands = error.details.commands as string[];
      assert.ok(commands.includes(`spot inspect --id ${runId}`), `${verb}: ${commands}`);
      for (const c of commands) {
        assert.doesNotMatch(c, /spot (verify|run|self-review|approve|revise|integrate) /, `${verb}: ${c}`);
        offered.add(c);
      }
    }
    // Every command offered works on the run as it is now (discard last: it changes the run).
    for (
      const c of [...offered].sort((a, b) => Number(a.includes("discard")) - Number(b.includes("discard")))
    ) {
      const r = await spot(env, sc.repo, ...c.split(" ").slice(1));
      assert.equal(r.code, 0, `${c}: ${r.stderr}`);
    }
  }
  await Deno.remove(env.dir, { recursive: true });
});
