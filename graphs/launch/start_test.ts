import assert from "node:assert/strict";
import { join } from "node:path";
import { isSpotError } from "../../errors.ts";
import { JobTask } from "../../schemas/job/task.ts";
import { makeRepo, sh } from "../../tests/helpers.ts";
import { buildersBefore, composeStart, type Layer, layersOf } from "./start.ts";

const t = (id: string, role: string, after: string[] = []) =>
  JobTask.parse({
    id,
    role,
    task: "t",
    acceptance: ["a"],
    after,
    ...(role === "builder" ? { ownership: [id], noChecksReason: "n" } : {}),
  });

Deno.test("buildersBefore() lists the builders a task builds on, through any role, each after its own", () => {
  const tasks = [
    t("d", "builder", ["b", "c"]),
    t("c", "builder", ["s"]),
    t("b", "builder", ["a"]),
    t("s", "scout", ["a"]),
    t("a", "builder"),
    t("r", "reviewer", ["d"]),
  ];
  assert.deepEqual(buildersBefore(tasks, tasks[5]).map((b) => b.id), ["a", "b", "c", "d"]);
  assert.deepEqual(buildersBefore(tasks, tasks[1]).map((b) => b.id), ["a"], "through the scout");
  assert.deepEqual(buildersBefore(tasks, tasks[4]), []);
});

Deno.test("layersOf() refuses a builder without a verified commit on record", () => {
  const a = t("a", "builder");
  assert.deepEqual(layersOf([a], { a: { state: "succeeded", startCommit: "s", verifiedCommit: "v" } }), [
    { id: "a", start: "s", verified: "v" },
  ]);
  assert.throws(() => layersOf([a], { a: { state: "failed" } }), (e) => isSpotError(e, "STATE_INVALID"));
});

/** A commit on `parent` with `files` written (others as they were), made the way a builder's verified one is. */
async function commitOn(repo: string, parent: string, files: Record<string, string>): Promise<string> {
  await sh(repo, "git", "checkout", "-q", "--detach", parent);
  for (const [path, content] of Object.entries(files)) await Deno.writeTextFile(join(repo, path), content);
  await sh(repo, "git", "add", "-A");
  await sh(repo, "git", "commit", "-q", "-m", "layer");
  return await sh(repo, "git", "rev-parse", "HEAD");
}

const ID = () => Promise.resolve({ name: "T", email: "t@example.invalid" });

Deno.test("composeStart() follows a chain as is, merges a builder beside it, and names a conflict's files", async () => {
  const repo = await makeRepo({ "a.txt": "a\n", "b.txt": "b\n", "c.txt": "c\n" });
  const base = await sh(repo, "git", "rev-parse", "HEAD");
  const a = await commitOn(repo, base, { "a.txt": "A\n" });
  const b = await commitOn(repo, a, { "b.txt": "B\n" }); // b after a
  const c = await commitOn(repo, a, { "c.txt": "C\n" }); // c after a, beside b
  const options = { scratchDir: repo, identity: ID, taskId: "d", jobId: "job-x" };
  const layers: Layer[] = [
    { id: "a", start: base, verified: a },
    { id: "b", start: a, verified: b },
  ];
  assert.equal(await composeStart(repo, base, layers, options), b, "a chain is its last verified commit");
  const both = await composeStart(repo, base, [...layers, { id: "c", start: a, verified: c }], options);
  assert.equal(await sh(repo, "git", "rev-parse", `${both}^`), b, "c's change goes on top of b");
  for (const [file, content] of [["a.txt", "A"], ["b.txt", "B"], ["c.txt", "C"]]) {
    assert.equal(await sh(repo, "git", "show", `${both}:${file}`), content);
  }
  const clash = await commitOn(repo, a, { "b.txt": "not B\n", "c.txt": "C\n" });
  await assert.rejects(
    () => composeStart(repo, base, [...layers, { id: "c", start: a, verified: clash }], options),
    (e) => {
      assert.ok(isSpotError(e, "TASK_BASE_CONFLICT"));
      assert.match(e.message, /Cannot start task "d": builder "c"'s change conflicts .* in b\.txt$/);
      assert.deepEqual((e.details as { files: string[] }).files, ["b.txt"]);
      return true;
    },
  );
  assert.equal(
    await sh(repo, "git", "status", "--porcelain"),
    "",
    "the checkout's index and files untouched",
  );
  await Deno.remove(repo, { recursive: true });
});
