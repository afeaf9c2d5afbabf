/** The job feed: transitions appended after it started, new jobs from their first event, on the event stream. */
import assert from "node:assert/strict";
import { appendEvent } from "../../graphs/store.ts";
import { writeFixtureJob } from "../../tests/jobs/job_fixture.ts";
import { BASE, withApp } from "../../tests/serve_harness.ts";
import { JobFeed, toJobItem } from "./feed.ts";

const OLD = "job-20250101-000000-aaaaaa";
const NEW = "job-20250102-000000-bbbbbb";
const tasks = [{ id: "scout", role: "scout" }, { id: "plan", role: "planner", after: ["scout"] }];

Deno.test("JobFeed sends transitions appended after it started, and a new job from its first event", async () => {
  await withApp(async (h) => {
    const feed = new JobFeed(h.paths);
    await feed.prime();
    assert.deepEqual(await feed.poll(), [], "no jobs yet");
    await writeFixtureJob(h.paths, {
      jobId: OLD,
      tasks,
      records: { scout: { state: "running", runId: `${OLD}.scout` } },
    });
    const first = await feed.poll();
    assert.deepEqual(first.map((i) => `${i.jobId} ${i.type} ${i.id ?? "-"} ${i.state}`), [
      `${OLD} job - created`,
      `${OLD} task scout running`,
    ]);
    assert.equal(first[1].runId, `${OLD}.scout`);
    assert.deepEqual(await feed.poll(), [], "nothing is sent twice");
    await appendEvent(h.paths, OLD, {
      at: "2025-01-01T00:00:01Z",
      type: "task",
      id: "scout",
      state: "succeeded",
    });
    assert.deepEqual((await feed.poll()).map((i) => `${i.id} ${i.state}`), ["scout succeeded"]);

    // A feed started now takes the job as history: only what comes next is news.
    const late = new JobFeed(h.paths);
    await late.prime();
    assert.deepEqual(await late.poll(), []);
    await appendEvent(h.paths, OLD, {
      at: "2025-01-01T00:00:02Z",
      type: "task",
      id: "plan",
      state: "running",
    });
    assert.deepEqual((await late.poll()).map((i) => `${i.id} ${i.state}`), ["plan running"]);
  });
});

Deno.test("GET /api/events carries job transitions as job events", async () => {
  await withApp(async (h, app) => {
    await writeFixtureJob(h.paths, { jobId: OLD, tasks });
    const res = await app.request(`${BASE}/api/events`);
    const reader = res.body!.getReader();
    let seen = "";
    const until = async (want: RegExp) => {
      const deadline = Date.now() + 5_000;
      while (!want.test(seen)) {
        assert.ok(Date.now() < deadline, `no ${want} in: ${seen}`);
        const chunk = await reader.read();
        if (chunk.done) break;
        seen += new TextDecoder().decode(chunk.value);
      }
    };
    await until(/event: hello/);
    await writeFixtureJob(h.paths, { jobId: NEW, tasks, records: { scout: { state: "running" } } });
    await appendEvent(h.paths, OLD, {
      at: "2025-01-01T00:00:01Z",
      type: "task",
      id: "plan",
      state: "blocked",
    });
    await until(/"jobId":"job-20250101-000000-aaaaaa","type":"task","id":"plan","state":"blocked"/);
    await until(/"jobId":"job-20250102-000000-bbbbbb","type":"task","id":"scout","state":"running"/);
    assert.match(seen, /event: job\n/);
    assert.ok(
      !/"jobId":"job-20250101-000000-aaaaaa","type":"job","id":null,"state":"created"/.test(seen),
      "history",
    );
    await reader.cancel();
  }, { pollMs: 30 });
});

Deno.test("toJobItem() drops what is not a job or task transition", () => {
  assert.equal(toJobItem("j", { at: "t", type: "task", id: "a", state: "running" }).length, 1);
  assert.deepEqual(toJobItem("j", null), []);
  assert.deepEqual(toJobItem("j", { type: "other" as "job", state: "x" }), []);
  assert.deepEqual(toJobItem("j", { type: "job", state: 3 as unknown as string }), []);
});
