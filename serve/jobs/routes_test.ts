/** The jobs routes: the list, one job's graph, their JSON, bad ids and queries, escaping and the guard. */
import assert from "node:assert/strict";
import { join } from "node:path";
import { jobsDir } from "../../graphs/store.ts";
import { fixtureState, writeFixtureRun } from "../../tests/fixture_runs.ts";
import { writeFixtureJob } from "../../tests/jobs/job_fixture.ts";
import { BASE, text, withApp } from "../../tests/serve_harness.ts";
import type { SpotPaths } from "../../store/paths.ts";

const A = "job-20250101-000000-aaaaaa";
const B = "job-20250102-000000-bbbbbb";
const XSS = `<img src=x onerror=alert(1)></script><script>alert(2)</script>`;

/** Job B: a scout that succeeded, a builder running after it, a reviewer still queued after the builder. */
async function seedJobs(paths: SpotPaths): Promise<void> {
  await writeFixtureJob(paths, {
    jobId: A,
    tasks: [{ id: "look", role: "scout" }],
    records: { look: { state: "failed", reason: `RESULT_INVALID: ${XSS}`, runId: `${A}.look` } },
    status: "failed",
    cwd: `/tmp/${XSS}`,
  });
  const now = Date.now();
  await writeFixtureJob(paths, {
    jobId: B,
    createdAt: new Date(now - 3_600_000).toISOString(),
    allowWrites: true,
    tasks: [
      { id: "review", role: "reviewer", after: ["api"] },
      { id: "scout", role: "scout", task: `Find it ${XSS}` },
      { id: "api", role: "builder", after: ["scout"] },
    ],
    records: {
      scout: {
        state: "succeeded",
        runId: `${B}.scout`,
        startedAt: new Date(now - 65_000).toISOString(),
        endedAt: new Date(now - 60_000).toISOString(),
      },
      api: { state: "running", runId: `${B}.api`, startedAt: new Date(now - 30_000).toISOString() },
    },
    status: "running",
  });
  await writeFixtureRun(paths, fixtureState(`${B}.scout`, { status: "integrated" }), { goal: "scout goal" });
  // A run whose worker has not ended a turn: its usage is unknown, not zero.
  await writeFixtureRun(
    paths,
    fixtureState(`${B}.api`, {
      status: "running",
      workerAttempts: 0,
      workerUsage: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
      workerCostUsd: 0,
    }),
  );
}

const attr = (body: string, name: string) =>
  [...body.matchAll(new RegExp(`${name}="([^"]*)"`, "g"))].map((m) => m[1]);

Deno.test("GET /jobs lists every job newest first: status, tasks by state, age and repository", async () => {
  await withApp(async (h, app) => {
    const empty = await text(app, "/jobs");
    assert.equal(empty.res.status, 200);
    assert.match(empty.body, /No jobs yet/);
    await seedJobs(h.paths);
    const { res, body } = await text(app, "/jobs");
    assert.match(res.headers.get("content-security-policy") ?? "", /script-src 'self'/);
    assert.match(body, /<script src="\/assets\/jobs.js" defer><\/script>/);
    assert.deepEqual(attr(body, "data-job").filter((id) => id !== ""), [B, A]);
    assert.match(body, new RegExp(`href="/jobs/${B}"`));
    const rowB = body.slice(body.indexOf(`data-job="${B}"`), body.indexOf(`data-job="${A}"`));
    assert.match(rowB, /status-running/);
    assert.deepEqual(attr(rowB, "data-count"), ["queued", "running", "succeeded"]);
    assert.match(rowB, /1h 00m/, "its age");
    assert.match(rowB, /\/tmp\/repo/);
    const fragment = (await text(app, "/api/fragment/jobs")).body;
    assert.ok(!fragment.includes("<html"), "the fragment is the panel alone");
    assert.deepEqual(attr(fragment, "data-job"), [B, A]);
  });
});

Deno.test("GET /jobs/:id draws the graph in layers by depth of after, with each task's state, run, time and cost", async () => {
  await withApp(async (h, app) => {
    await seedJobs(h.paths);
    const { res, body } = await text(app, `/jobs/${B}`);
    assert.equal(res.status, 200);
    const layers = [
      ...body.matchAll(
        /<div class="layer" data-depth="(\d)">([\s\S]*?)<\/div>\s*(?=<div class="layer"|<\/div>)/g,
      ),
    ];
    assert.deepEqual(layers.map((l) => attr(l[2], "data-task")), [["scout"], ["api"], ["review"]]);
    const node = (id: string) =>
      body.slice(
        body.indexOf(`data-task="${id}"`),
        body.indexOf("</article>", body.indexOf(`data-task="${id}"`)),
      );
    assert.match(node("api"), /data-after="scout"/);
    assert.match(node("api"), /data-state="running"/);
    assert.match(node("api"), /<span class="badge role">builder<\/span>/);
    assert.match(node("api"), /run running|status-running/);
    assert.match(node("api"), /data-elapsed="\d+"/, "a running task's time keeps counting");
    assert.match(node("api"), /cost -/, "no turn ended yet: cost unknown");
    assert.match(node("api"), new RegExp(`href="/jobs/${B}\\?task=api"[^>]*>${B}\\.api<`));
    assert.match(node("scout"), /5s/, "ended: endedAt - startedAt");
    assert.match(node("scout"), /\$0\.0012/, "cost from the run's usage");
    assert.match(node("scout"), /1,200|1200/);
    assert.match(node("review"), /no run yet/);
    assert.match(node("review"), /class="dep status-running" href="#task-api"/);
    assert.match(body, /task <b>api<\/b> <span class="badge status status-running">running/);
    const json = JSON.parse((await text(app, `/api/jobs/${B}`)).body);
    assert.equal(json.ok, true);
    const tasks = json.job.tasks as { id: string; depth: number; usage: unknown; costUsd: number | null }[];
    assert.deepEqual(tasks.map((t) => `${t.id}:${t.depth}`), ["review:2", "scout:0", "api:1"]);
    assert.equal(tasks.find((t) => t.id === "scout")!.costUsd, 0.0012);
    assert.equal(tasks.find((t) => t.id === "api")!.usage, null);
    assert.equal(json.job.byState.running, 1);
    assert.ok(
      json.job.events.some((e: { id?: string; state: string }) => e.id === "api" && e.state === "running"),
    );
    const list = JSON.parse((await text(app, "/api/jobs?limit=1")).body);
    assert.deepEqual([list.total, list.jobs.map((j: { jobId: string }) => j.jobId)], [2, [B]]);
  });
});

Deno.test("?task= opens that task's run under the graph, and a task id is checked", async () => {
  await withApp(async (h, app) => {
    await seedJobs(h.paths);
    const open = (await text(app, `/api/fragment/jobs/${B}?task=scout`)).body;
    assert.match(open, /data-open-task="scout"/);
    assert.match(open, /scout goal/, "the run's detail");
    assert.match((await text(app, `/jobs/${B}?task=review`)).body, /Task review has no run yet/);
    for (const query of ["task=Bad_Id", "task=..%2Fx", "sneaky=1"]) {
      const { res, body } = await text(app, `/jobs/${B}?${query}`);
      assert.equal(res.status, 400, query);
      assert.match(JSON.parse(body).error.message, /task|sneaky/);
    }
    assert.equal((await text(app, "/api/jobs?page=0")).res.status, 400);
  });
});

Deno.test("a task whose run was never created says so, and an unreadable run is told apart from it", async () => {
  await withApp(async (h, app) => {
    await seedJobs(h.paths);
    const never = (await text(app, `/jobs/${A}?task=look`)).body;
    assert.match(
      never,
      new RegExp(`Run ${A}\\.look has not been created: task look is failed \\(RESULT_INVALID`),
    );
    assert.doesNotMatch(never, /could not be read/);
    assert.doesNotMatch(never, /<img src=x/, "the reason is escaped");
    await Deno.mkdir(join(h.paths.runsDir, `${A}.look`), { recursive: true });
    await Deno.writeTextFile(join(h.paths.runsDir, `${A}.look`, "state.json"), "{ half-written");
    const broken = (await text(app, `/jobs/${A}?task=look`)).body;
    assert.match(broken, /The run's files could not be read/);
    assert.doesNotMatch(broken, /has not been created/);
  });
});

Deno.test("a bad or unknown job id is 404 on every job route, and a traversal reads nothing outside jobs/", async () => {
  await withApp(async (h, app) => {
    await seedJobs(h.paths);
    // The near miss: a job planted beside jobs/, which "../planted" would name if the id were not checked.
    const planted = join(jobsDir(h.paths), "..", "planted");
    await Deno.mkdir(planted, { recursive: true });
    for (const f of ["job.json", "state.json"]) {
      await Deno.copyFile(join(jobsDir(h.paths), B, f), join(planted, f));
    }
    assert.ok(await Deno.stat(join(jobsDir(h.paths), "../planted", "state.json")), "reachable by the path");
    for (const id of ["..%2Fplanted", "x..y", ".hidden", "ab", "a%2Fb", "job-20990101-000000-none00"]) {
      for (const route of ["/jobs/", "/api/jobs/", "/api/fragment/jobs/"]) {
        const { res, body } = await text(app, `${route}${id}`);
        assert.equal(res.status, 404, `${route}${id}`);
        assert.equal(JSON.parse(body).error.code, "JOB_NOT_FOUND");
        assert.ok(!body.includes("running"), "nothing of the planted job");
      }
    }
  });
});

Deno.test("job pages escape worker and parent text, and sit behind the dashboard's Host and Origin checks", async () => {
  await withApp(async (h, app) => {
    await seedJobs(h.paths);
    for (const path of ["/jobs", `/jobs/${A}`, `/jobs/${B}`, `/jobs/${A}?task=look`]) {
      const { body } = await text(app, path);
      assert.ok(!body.includes("<img"), `${path}: no raw tag`);
      assert.ok(!body.includes("<script>"), `${path}: no raw script`);
    }
    assert.match((await text(app, `/jobs/${A}`)).body, /RESULT_INVALID: &lt;img src=x/);
    assert.match((await text(app, `/jobs/${B}`)).body, /Find it &lt;img/);
    const rebind = await app.request(`${BASE}/api/jobs`, { headers: { host: "evil.example:7317" } });
    assert.equal(rebind.status, 403);
    const foreign = await app.request(`${BASE}/jobs/${B}`, { headers: { origin: "http://evil.example" } });
    assert.equal(foreign.status, 403);
    assert.equal(
      (await app.request(`${BASE}/jobs/${B}`)).status,
      200,
      "the same request from the page is fine",
    );
  });
});

Deno.test("a half-created or hand-broken job is left out of the list, and odd events do not break a page", async () => {
  await withApp(async (h, app) => {
    await seedJobs(h.paths);
    await Deno.mkdir(join(jobsDir(h.paths), "job-20250103-000000-half00"));
    await Deno.mkdir(join(jobsDir(h.paths), "job-20250104-000000-broken"));
    await Deno.writeTextFile(join(jobsDir(h.paths), "job-20250104-000000-broken", "job.json"), "{torn");
    await Deno.writeTextFile(join(jobsDir(h.paths), "job-20250104-000000-broken", "state.json"), "[]");
    await Deno.writeTextFile(join(jobsDir(h.paths), B, "events.jsonl"), `5\n"x"\nnull\n{"type":"task"}\n`, {
      append: true,
    });
    const list = JSON.parse((await text(app, "/api/jobs")).body);
    assert.equal(list.total, 4, "every job directory counts");
    assert.deepEqual(list.jobs.map((j: { jobId: string }) => j.jobId), [B, A]);
    const { res, body } = await text(app, `/jobs/${B}`);
    assert.equal(res.status, 200);
    assert.match(body, /task <b>api<\/b>/);
    assert.equal((await text(app, "/jobs/job-20250104-000000-broken")).res.status, 404);
  });
});
