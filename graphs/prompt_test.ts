import assert from "node:assert/strict";
import type { JobTask } from "../schemas/job/task.ts";
import type { StoredJob } from "./store.ts";
import { taskPrompt, webHostsOf } from "./prompt.ts";

const task = (role: JobTask["role"], extra: Partial<JobTask> = {}): JobTask => ({
  id: "t",
  role,
  task: "Find x",
  acceptance: ["found"],
  instructions: [],
  context: [],
  after: [],
  ...extra,
});
const job = (webHosts: string[]) =>
  ({ jobId: "j", cwd: "/r", instructions: [], tasks: [], webHosts }) as unknown as StoredJob;

Deno.test("webHostsOf(): a research task's own list replaces the job's; other roles get none", () => {
  assert.deepEqual(webHostsOf(job(["a.org:443"]), task("research")), ["a.org:443"]);
  assert.deepEqual(webHostsOf(job(["a.org:443"]), task("research", { webHosts: ["b.org:443"] })), [
    "b.org:443",
  ]);
  assert.deepEqual(webHostsOf(job(["a.org:443"]), task("research", { webHosts: [] })), []);
  assert.equal(webHostsOf(job(["a.org:443"]), task("scout")), null);
});

Deno.test("taskPrompt() tells research its web hosts, or that every fetch is refused; other roles hear nothing", () => {
  const listed = taskPrompt(job(["docs.deno.com:443"]), task("research"), { before: [] });
  assert.match(
    listed,
    /## Web access\n.*only from these hosts:\n- docs\.deno\.com:443\nA fetch from any other/,
  );
  const none = taskPrompt(job([]), task("research"), { before: [] });
  assert.match(
    none,
    /## Web access\nNo web host is allowed for this task: every fetch is refused and recorded/,
  );
  assert.doesNotMatch(taskPrompt(job(["docs.deno.com:443"]), task("scout"), { before: [] }), /Web access/);
});
