import assert from "node:assert/strict";
import { isSpotError, type SpotError } from "../errors.ts";
import { parseAddedTask, parseJob } from "./load.ts";

async function refusal(p: Promise<unknown>): Promise<SpotError> {
  try {
    await p;
  } catch (error) {
    if (isSpotError(error)) return error;
    throw error;
  }
  assert.fail("accepted");
}

const job = (tasks: unknown[]) =>
  JSON.stringify({ approval: "me", allowWrites: true, noIntegratedChecksReason: "none", tasks }, null, 2);
const b = (id: string, ownership: string[], after: string[] = []) => ({
  id,
  role: "builder",
  task: "t",
  acceptance: ["a"],
  after,
  ownership,
  noChecksReason: "x",
});

Deno.test("parseJob: an unknown key is refused with its line:col", async () => {
  const text = '{\n  "approval": "me",\n  "extra": 1\n}';
  const e = await refusal(parseJob(text, "job.json"));
  assert.equal(e.code, "JOB_INVALID");
  assert.match(e.message, /job\.json:3:3 extra: /);
});

Deno.test("parseJob: overlapping builders and cycles carry their own codes and locations", async () => {
  const overlap = await refusal(parseJob(job([b("a", ["src"]), b("c", ["src/x"])]), "j.json"));
  assert.equal(overlap.code, "OWNERSHIP_OVERLAP");
  assert.match(
    overlap.message,
    /j\.json:\d+:\d+ tasks\[1\]\.ownership\[0\]: "src\/x" overlaps "src" of builder "a"/,
  );
  const cycle = await refusal(parseJob(job([b("a", ["x"], ["c"]), b("c", ["y"], ["a"])]), "j.json"));
  assert.equal(cycle.code, "JOB_CYCLE");
  assert.match(cycle.message, /a -> c -> a/);
  // The same graph without the overlap or the loop is accepted: the rules, not the shape, refused it.
  assert.equal((await parseJob(job([b("a", ["src"]), b("c", ["src/x"], ["a"])]), "j.json")).tasks.length, 2);
});

Deno.test("parseAddedTask: checked with the job's tasks, located in its own file", async () => {
  const tasks = (await parseJob(job([b("a", ["src"])]), "j.json")).tasks;
  const text = JSON.stringify(b("c", ["src/lib"]), null, 2);
  const e = await refusal(parseAddedTask(text, "t.json", { tasks }));
  assert.equal(e.code, "OWNERSHIP_OVERLAP");
  assert.match(e.message, /t\.json:\d+:\d+ ownership\[0\]/);
  const unknown = await refusal(
    parseAddedTask(JSON.stringify(b("c", ["docs"], ["zz"])), "t.json", { tasks }),
  );
  assert.equal(unknown.code, "JOB_INVALID");
  assert.equal((await parseAddedTask(JSON.stringify(b("c", ["docs"], ["a"])), "t.json", { tasks })).id, "c");
});

Deno.test("parseJob and parseAddedTask: webHosts on a task that is not research is refused at its line:col", async () => {
  const scout = { id: "s", role: "scout", task: "t", acceptance: ["a"], webHosts: ["docs.deno.com:443"] };
  const e = await refusal(parseJob(job([scout]), "j.json"));
  assert.equal(e.code, "JOB_INVALID");
  assert.match(e.message, /j\.json:\d+:\d+ tasks\[0\]\.webHosts: only a research task has web tools/);
  const added = await refusal(parseAddedTask(JSON.stringify(scout, null, 2), "t.json", { tasks: [] }));
  assert.match(added.message, /t\.json:8:3 webHosts: only a research task has web tools/);
  // The same task as research is accepted: the role, not the list, was refused.
  const research = { ...scout, role: "research" };
  assert.deepEqual((await parseJob(job([research]), "j.json")).tasks[0].webHosts, ["docs.deno.com:443"]);
});
