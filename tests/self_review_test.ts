/** Self-review through the CLI: the tier a parent gets, and every skip reason, recorded. */
import assert from "node:assert/strict";
import { join } from "node:path";
import { demoScenario, FIXED_ADD, prepareScenario } from "./scenario.ts";
import { type CliResult, spot, spotEnv } from "./helpers.ts";

const REPORT = (sha: string, findings: Record<string, unknown>[] = []) =>
  JSON.stringify({
    schemaVersion: 1,
    runId: "{{runId}}",
    diffSha256: sha,
    acceptanceEvidence: [
      {
        criterion: "add(2, 3) returns 5",
        status: "met",
        evidence: [{ file: "add.ts", line: 2, note: "a + b" }],
      },
      { criterion: "add_test.ts passes unchanged", status: "met", evidence: [{ file: "add.ts", line: 2 }] },
    ],
    findings,
    uncertainCriteria: [],
    summary: "The operator is fixed.",
  });

async function toSelfReview(episode: Record<string, unknown>[], config: Record<string, unknown>) {
  const env = await spotEnv(config);
  const sc = await demoScenario(env.dir, [{ op: "write", path: "add.ts", content: FIXED_ADD }, ...episode]);
  const id = await prepareScenario(env, sc);
  await spot(env, sc.repo, "run", "--id", id);
  const verify = await spot(env, sc.repo, "verify", "--id", id);
  const self = verify.json.status === "selfReviewing"
    ? await spot(env, sc.repo, "self-review", "--id", id)
    : verify;
  const state = JSON.parse(await Deno.readTextFile(join(env.stateDir, "runs", id, "state.json")));
  return { env, sc, id, verify, self, state };
}

const ANY_SIZE = { selfReview: { minDiffBytes: 0, minSurfaceBytes: 0 } };

Deno.test("a consistent self-review gives tier A and spot diff --hunks prints exactly its hunks", async () => {
  const r = await toSelfReview([{
    op: "say",
    phase: "self-review",
    text: "Report:\n```json\n" + REPORT("{{diffSha256}}") + "\n```",
  }], ANY_SIZE);
  assert.equal(r.self.code, 0, r.self.stderr);
  assert.deepEqual([r.self.json.skipped, r.self.json.reviewTier, r.self.json.diffSha256Mismatch], [
    false,
    "A",
    false,
  ]);
  assert.equal(r.self.json.spotCheckRequired, 1);
  const saved = JSON.parse(await Deno.readTextFile(join(r.env.stateDir, "runs", r.id, "self-review.json")));
  assert.equal(saved.diffSha256, r.verify.json.diffSha256);
  const diff = await spot(r.env, r.sc.repo, "diff", "--id", r.id, "--hunks");
  assert.equal(diff.json.tier, "A");
  assert.deepEqual((diff.json.hunks as { file: string }[]).map((h) => h.file), ["add.ts"]);
  const guide = JSON.parse(await Deno.readTextFile(join(r.env.stateDir, "runs", r.id, "review-guide.json")));
  assert.deepEqual(
    [diff.json.coveredHunks, guide.covered],
    [0, []],
    "the one hunk is read, so none is left covered",
  );
  assert.deepEqual([diff.json.readBytes, guide.diffSha256], [guide.readBytes, r.verify.json.diffSha256]);
  await Deno.remove(r.env.dir, { recursive: true });
});

Deno.test("a P3 self-finding gives tier B while the fallback stays recommended only for worse", async () => {
  const note = {
    priority: "P3",
    file: "add.ts",
    line: 2,
    problem: "no doc comment",
    requiredChange: "add one",
  };
  const r = await toSelfReview(
    [{ op: "say", phase: "self-review", text: REPORT("{{diffSha256}}", [note]) }],
    ANY_SIZE,
  );
  assert.deepEqual([r.self.json.reviewTier, r.self.json.fallbackRecommended], ["B", false], r.self.stderr);
  const diff = await spot(r.env, r.sc.repo, "diff", "--id", r.id, "--hunks");
  assert.deepEqual((diff.json.hunks as { reason: string }[]).map((h) => h.reason), [
    "P3 finding: no doc comment",
  ]);
  await Deno.remove(r.env.dir, { recursive: true });
});

Deno.test("a self-review that echoes the wrong hash sends the parent to tier C", async () => {
  const r = await toSelfReview([{ op: "say", phase: "self-review", text: REPORT("f".repeat(64)) }], ANY_SIZE);
  assert.deepEqual(
    [r.self.json.diffSha256Mismatch, r.self.json.fallbackRecommended, r.self.json.reviewTier],
    [true, true, "C"],
  );
  await Deno.remove(r.env.dir, { recursive: true });
});

const skips: [string, Record<string, unknown>[], Record<string, unknown>][] = [
  ["diff-too-small", [], {}],
  ["review-surface-too-small", [], { selfReview: { minDiffBytes: 0, minSurfaceBytes: 1_000_000 } }],
  ["worker-failed", [{ op: "fail", phase: "self-review", message: "401 invalid api key" }], ANY_SIZE],
  ["parse-failed", [{ op: "say", phase: "self-review", text: "Looks good to me!" }], ANY_SIZE],
  [
    "validation-failed",
    [{ op: "say", phase: "self-review", text: '{"schemaVersion": 1, "summary": "ok"}' }],
    ANY_SIZE,
  ],
  ["disabled", [], { selfReview: { enabled: false } }],
];

for (const [reason, episode, config] of skips) {
  Deno.test(`self-review skips with reason ${reason}, records it, and never blocks`, async () => {
    const r = await toSelfReview(episode, config);
    const out: CliResult = r.self;
    assert.equal(out.code, 0, out.stderr);
    assert.equal(r.state.status, "reviewing");
    assert.deepEqual([r.state.selfReviewSkipped, r.state.selfReviewSkipReason], [true, reason]);
    assert.equal(out.json.reviewTier, "C");
    await Deno.remove(r.env.dir, { recursive: true });
  });
}

Deno.test("a failed verification records verification-not-passed and goes straight to review", async () => {
  const env = await spotEnv();
  const sc = await demoScenario(env.dir, [{ op: "say", text: "I fixed it, all tests pass." }, {
    op: "write",
    path: "add.ts",
    content: "export const add = (a: number, b: number) => a * b;\n",
  }]);
  const id = await prepareScenario(env, sc);
  await spot(env, sc.repo, "run", "--id", id);
  const verify = await spot(env, sc.repo, "verify", "--id", id);
  assert.deepEqual([verify.json.passed, verify.json.status, verify.json.reviewTier], [
    false,
    "reviewing",
    "C",
  ]);
  const state = JSON.parse(await Deno.readTextFile(join(env.stateDir, "runs", id, "state.json")));
  assert.equal(state.selfReviewSkipReason, "verification-not-passed");
  await Deno.remove(env.dir, { recursive: true });
});
