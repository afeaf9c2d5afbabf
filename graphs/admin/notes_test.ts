import assert from "node:assert/strict";
import { isSpotError } from "../../errors.ts";
import type { StoredJob } from "../store.ts";
import { taskPrompt } from "../prompt.ts";
import { checkNote, MAX_NOTE } from "./notes.ts";

Deno.test("checkNote() keeps the text, refuses an empty note and one over the limit", () => {
  assert.equal(checkNote("j", "use the v2 API\n\n"), "use the v2 API");
  assert.equal(checkNote("j", "x".repeat(MAX_NOTE)).length, MAX_NOTE);
  for (const bad of ["", "  \n", "x".repeat(MAX_NOTE + 1)]) {
    assert.throws(() => checkNote("j", bad), (e) => isSpotError(e, "JOB_INVALID"));
  }
});

Deno.test("taskPrompt() tells a task the job's notes, oldest first, and nothing when there are none", () => {
  const task = {
    id: "scout",
    role: "scout" as const,
    task: "Find x",
    acceptance: ["found"],
    instructions: [],
    context: [],
    after: [],
  };
  const job = { jobId: "j", cwd: "/r", instructions: [], tasks: [task] } as unknown as StoredJob;
  const told = taskPrompt(job, task, { before: [], notes: [{ text: "first" }, { text: "second\nline" }] });
  assert.ok(told.includes("## Notes from the parent, oldest first\n- first\n- second\n  line\n"), told);
  assert.doesNotMatch(taskPrompt(job, task, { before: [] }), /## Notes/);
});
