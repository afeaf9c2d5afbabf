/**
 * A job's tasks build on each other, through the CLI with the replay worker: scout → builder a → builder b
 * (after a) → reviewer (of a and b) → repair of b → re-review. b's worktree holds a's verified change; the
 * reviewer's holds both, and it is given the combined patch, its stat and each builder's fingerprint; the
 * repair of b starts from b's first attempt's verified work and is told the reviewer's findings; the job then
 * lands both builders. A repair whose last attempt failed verification starts afresh, shown that diff.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import type { JobState } from "../../graphs/store.ts";
import { sha256Hex } from "../../git/hash.ts";
import { sh, spot } from "../helpers.ts";
import { code, episode, init, replay, result, runToEnd, setup, task, waitToEnd, write } from "./helpers.ts";

const readState = async (stateDir: string, jobId: string) =>
  JSON.parse(await Deno.readTextFile(join(stateDir, "jobs", jobId, "state.json"))) as JobState;
const runState = async (stateDir: string, runId: string) =>
  JSON.parse(await Deno.readTextFile(join(stateDir, "runs", runId, "state.json")));
const runFile = (stateDir: string, runId: string, name: string) =>
  Deno.readTextFile(join(stateDir, "runs", runId, name));
/** An episode step that appends what the worker sees of `files` to `log` (outside the worktree). */
const look = (log: string, ...files: string[]) => ({
  op: "exec",
  argv: [
    "sh",
    "-c",
    `for f in ${files.join(" ")}; do cat "$f" 2>/dev/null || echo "no $f"; done >> '${log}'`,
  ],
});
const verdicts = (b: string) => [
  { taskId: "a", fingerprint: "{{fingerprint:a}}", verdict: "approve" },
  { taskId: "b", fingerprint: "{{fingerprint:b}}", verdict: b },
];
const FINDING = {
  severity: "high",
  taskId: "b",
  message: "z is missing",
  evidence: "ui/z.ts does not exist",
  requiredChange: "add ui/z.ts exporting z = 1",
};

Deno.test("job compose: b builds on a, the reviewer sees both, b's repair continues its first attempt", async () => {
  const { env, repo } = await setup();
  const head = await sh(repo, "git", "rev-parse", "HEAD");
  const seen = { b: join(env.dir, "b-saw.txt"), review: join(env.dir, "review-saw.txt") };
  const bEpisode = (extra: Record<string, unknown>[]) =>
    episode(env.dir, "b", [
      look(seen.b, "api/x.ts", "ui/y.ts"),
      ...extra,
      write("ui/y.ts", "export const y = 2;\n"),
      result({ summary: "y is 2", changedFiles: ["ui/y.ts"] }),
    ]);
  const reviewEpisode = (value: Record<string, unknown>) =>
    episode(env.dir, "review", [
      look(seen.review, "api/x.ts", "ui/y.ts", "ui/z.ts"),
      result({ summary: "read the patch", ...value }),
    ]);
  const created = await init(env, repo, {
    allowWrites: true,
    tasks: [
      task("scout", "scout", {
        model: replay(await episode(env.dir, "scout", [result({ summary: "found", brief: "api, then ui" })])),
      }),
      task("a", "builder", {
        after: ["scout"],
        ownership: ["api"],
        checks: [{ id: "x", argv: ["grep", "-rq", "x = 2", "api"] }],
        model: replay(
          await episode(env.dir, "a", [
            write("api/x.ts", "export const x = 2;\n"),
            result({ summary: "x is 2", changedFiles: ["api/x.ts"] }),
          ]),
        ),
      }),
      task("b", "builder", {
        after: ["a"],
        ownership: ["ui"],
        // b's check needs a's change: it passes only in a tree built on a's verified work.
        checks: [{ id: "both", argv: ["sh", "-c", "grep -q 'x = 2' api/x.ts && grep -q 'y = 2' ui/y.ts"] }],
        model: replay(await bEpisode([])),
      }),
      task("review", "reviewer", {
        after: ["a", "b"],
        model: replay(await reviewEpisode({ review: verdicts("changes_requested"), findings: [FINDING] })),
      }),
    ],
  });
  assert.equal(created.code, 0, created.stderr);
  const jobId = String(created.json.jobId);
  const first = await runToEnd(env, repo, jobId);
  assert.equal(first.code, 0, first.stdout + first.stderr);
  let state = await readState(env.stateDir, jobId);

  // b started from a's verified commit: its worktree and its check saw a's change.
  const a = state.tasks.a;
  assert.equal(a.verifiedCommit, await sh(repo, "git", "rev-parse", `refs/spot/${jobId}/tasks/a`));
  assert.equal(await sh(repo, "git", "rev-parse", `${a.verifiedCommit}^`), a.startCommit);
  const b1 = await runState(env.stateDir, `${jobId}.b`);
  assert.equal(b1.workerBaseRevision, a.verifiedCommit);
  assert.equal(await Deno.readTextFile(seen.b), "export const x = 2;\nexport const y = 1;\n");
  // b's own diff is its change alone: what landing cherry-picks.
  const b1Patch = await runFile(env.stateDir, `${jobId}.b`, "diff.patch");
  assert.match(b1Patch, /ui\/y\.ts/);
  assert.doesNotMatch(b1Patch, /api\/x\.ts/);
  assert.equal(state.tasks.b.startCommit, a.verifiedCommit);

  // The reviewer's worktree is the base plus both; its prompt names the combined patch, the stat, the prints.
  assert.equal(
    await Deno.readTextFile(seen.review),
    "export const x = 2;\nexport const y = 2;\nno ui/z.ts\n",
  );
  const r1 = await runState(env.stateDir, `${jobId}.review`);
  assert.equal(r1.workerBaseRevision, state.tasks.b.verifiedCommit);
  const prompt = await runFile(env.stateDir, `${jobId}.review`, "prompt-run-r0.md");
  const patchFile = join(env.stateDir, "runs", `${jobId}.review`, "attachments", "changes.patch");
  assert.ok(
    prompt.includes(`The combined patch, from the job's base to your worktree: ${patchFile}`),
    prompt,
  );
  assert.match(prompt, /\n api\/x\.ts \| 2 \+-\n ui\/y\.ts +\| 2 \+-\n 2 files changed/);
  assert.ok(prompt.includes(`fingerprint of a: ${a.fingerprint}`));
  assert.ok(prompt.includes(`fingerprint of b: ${state.tasks.b.fingerprint}`));
  const patch = await Deno.readTextFile(patchFile);
  assert.match(patch, /^\+export const x = 2;$/m);
  assert.match(patch, /^\+export const y = 2;$/m);
  assert.equal(state.tasks.review.reviewed?.patchSha256, await sha256Hex(patch));
  assert.deepEqual(state.tasks.review.reviewed?.fingerprints, {
    a: a.fingerprint,
    b: state.tasks.b.fingerprint,
  });
  const refused = await spot(env, repo, "job", "integrate", jobId);
  assert.equal(code(refused), "REVIEW_GATE", refused.stdout + refused.stderr);

  // The parent repairs b: its second attempt continues from the first one's verified work.
  await bEpisode([write("ui/z.ts", "export const z = 1;\n")]);
  await reviewEpisode({ review: verdicts("approve") });
  const repaired = await spot(env, repo, "job", "repair", jobId, "b", "add z as the reviewer asks");
  assert.equal(repaired.code, 0, repaired.stdout + repaired.stderr);
  assert.deepEqual(repaired.json.requeued, ["b", "review"]);
  assert.equal((await spot(env, repo, "job", "resume", jobId)).code, 0);
  const done = await waitToEnd(env, repo, jobId);
  assert.equal(done.code, 0, done.stdout + done.stderr);
  const b1Verified = state.tasks.b.verifiedCommit;
  state = await readState(env.stateDir, jobId);

  const b2 = await runState(env.stateDir, `${jobId}.b-a2`);
  assert.equal(b2.checkoutCommit, b1Verified, "the repair's worktree starts at its first attempt's work");
  assert.equal(b2.workerBaseRevision, a.verifiedCommit, "its diff still counts from its start");
  assert.equal(
    await Deno.readTextFile(seen.b),
    "export const x = 2;\nexport const y = 1;\n" + "export const x = 2;\nexport const y = 2;\n",
  );
  const b2Prompt = await runFile(env.stateDir, `${jobId}.b-a2`, "prompt-run-r0.md");
  assert.match(b2Prompt, /The parent asks: add z as the reviewer asks/);
  assert.match(
    b2Prompt,
    /\[high\] from reviewer "review": z is missing Evidence: ui\/z\.ts does not exist Required change: add ui\/z\.ts exporting z = 1/,
  );
  assert.match(b2Prompt, /It holds your attempt 1's work as spot verified it/);
  const b2Patch = await runFile(env.stateDir, `${jobId}.b-a2`, "diff.patch");
  assert.match(b2Patch, /ui\/y\.ts/, "the whole task's change: the first attempt's part too");
  assert.match(b2Patch, /ui\/z\.ts/);
  assert.doesNotMatch(b2Patch, /api\/x\.ts/);
  assert.equal(
    (await Deno.readTextFile(seen.review)).split("\n").slice(3).join("\n"),
    "export const x = 2;\nexport const y = 2;\nexport const z = 1;\n",
    "the re-review sees the repair",
  );
  assert.deepEqual(state.tasks.review.reviewed?.fingerprints.b, state.tasks.b.fingerprint);

  const integrated = await spot(env, repo, "job", "integrate", jobId);
  assert.equal(integrated.code, 0, integrated.stdout + integrated.stderr);
  assert.deepEqual((integrated.json.commits as { task: string }[]).map((c) => c.task), ["a", "b"]);
  assert.equal(await sh(repo, "git", "rev-parse", "HEAD~2"), head);
  assert.equal(await sh(repo, "git", "show", "--format=", "--name-only", "HEAD~1"), "api/x.ts");
  assert.equal(await sh(repo, "git", "show", "--format=", "--name-only", "HEAD"), "ui/y.ts\nui/z.ts");
  assert.equal(await Deno.readTextFile(join(repo, "ui/z.ts")), "export const z = 1;\n");
  await Deno.remove(env.dir, { recursive: true });
});

Deno.test("job compose: a repair whose last attempt failed verification starts afresh, shown that diff", async () => {
  const { env, repo } = await setup();
  const writeX = (v: number) =>
    episode(env.dir, "api", [
      write("api/x.ts", `export const x = ${v};\n`),
      result({ summary: `x is ${v}`, changedFiles: ["api/x.ts"] }),
    ]);
  const created = await init(env, repo, {
    allowWrites: true,
    tasks: [task("api", "builder", {
      ownership: ["api"],
      checks: [{ id: "x", argv: ["grep", "-rq", "x = 2", "api"] }],
      model: replay(await writeX(3)),
    })],
  });
  const jobId = String(created.json.jobId);
  const first = await runToEnd(env, repo, jobId);
  assert.equal(code(first), "JOB_FAILED", first.stdout + first.stderr);
  await writeX(2);
  assert.equal((await spot(env, repo, "job", "repair", jobId, "api", "x must be 2")).code, 0);
  assert.equal((await spot(env, repo, "job", "resume", jobId)).code, 0);
  const done = await waitToEnd(env, repo, jobId);
  assert.equal(done.code, 0, done.stdout + done.stderr);

  const run = await runState(env.stateDir, `${jobId}.api-a2`);
  assert.equal(run.checkoutCommit, undefined, "nothing verified to continue from");
  assert.equal(run.workerBaseRevision, (await readState(env.stateDir, jobId)).base?.commit);
  const attached = join(env.stateDir, "runs", `${jobId}.api-a2`, "attachments", "previous-attempt.diff");
  assert.match(await Deno.readTextFile(attached), /^\+export const x = 3;$/m);
  const prompt = await runFile(env.stateDir, `${jobId}.api-a2`, "prompt-run-r0.md");
  assert.ok(prompt.includes(`Your attempt 1 did not pass spot's verification`), prompt);
  assert.ok(prompt.includes(attached));
  await Deno.remove(env.dir, { recursive: true });
});

Deno.test("job compose: under bwrap the reviewer reads its patch, and nothing else of its run dir", async () => {
  const { env, repo } = await setup("bwrap");
  const runs = join(env.stateDir, "runs");
  const created = await init(env, repo, {
    allowWrites: true,
    config: { sandbox: "bwrap" },
    tasks: [
      task("api", "builder", {
        ownership: ["api"],
        noChecksReason: "a constant",
        model: replay(
          await episode(env.dir, "api", [
            write("api/x.ts", "export const x = 2;\n"),
            result({ summary: "x is 2", changedFiles: ["api/x.ts"] }),
          ]),
        ),
      }),
      task("review", "reviewer", {
        after: ["api"],
        model: replay(
          await episode(env.dir, "review", [
            { op: "exec", argv: ["sh", "-c", `cat ${runs}/*.review/attachments/changes.patch`] },
            { op: "exec", argv: ["sh", "-c", `cat ${runs}/*.review/state.json`] },
            result({
              summary: "read it",
              review: { taskId: "api", fingerprint: "{{fingerprint:api}}", verdict: "approve" },
            }),
          ]),
        ),
      }),
    ],
  });
  const jobId = String(created.json.jobId);
  const done = await runToEnd(env, repo, jobId);
  assert.equal(done.code, 0, done.stdout + done.stderr);
  const events = (await runFile(env.stateDir, `${jobId}.review`, "events.jsonl")).trim().split("\n")
    .map((l) => JSON.parse(l));
  const results = events.filter((e) => e.type === "worker_tool_result").map((e) => JSON.stringify(e));
  assert.equal(results.length, 2);
  assert.match(results[0], /\+export const x = 2;/, "the patch is readable");
  assert.match(results[1], /No such file/, "the run's state is not");
  assert.equal(
    (await runState(env.stateDir, `${jobId}.review`)).sandboxDetails.steps.worker.backend,
    "bwrap",
  );
  await Deno.remove(env.dir, { recursive: true });
});
