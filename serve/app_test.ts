/** The dashboard's routes: the page, fragments, filters, the runs API. */
import assert from "node:assert/strict";
import { fixtureState, writeFixtureRun } from "../tests/fixture_runs.ts";
import { runIds, seed, text, withApp } from "../tests/serve_harness.ts";

Deno.test("GET / serves the page with its script from a separate route under a strict CSP", async () => {
  await withApp(async (h, app) => {
    await seed(h);
    const { res, body } = await text(app, "/");
    assert.equal(res.status, 200);
    assert.match(res.headers.get("content-type") ?? "", /text\/html/);
    const csp = res.headers.get("content-security-policy") ?? "";
    assert.match(csp, /script-src 'self'/);
    assert.doesNotMatch(csp, /unsafe-inline|unsafe-eval/);
    assert.match(body, /<script src="\/assets\/app.js" defer><\/script>/);
    assert.doesNotMatch(body, /<script(?![^>]*\bsrc=)[^>]*>/, "no inline script");
    assert.match(body, /<meta name="spot-csrf" content="token-123">/);
    assert.deepEqual(runIds(body), ["run-5", "run-4", "run-3", "run-2", "run-1", "run-0"]);
  });
});

Deno.test("the client script and style are served with their own content types", async () => {
  await withApp(async (_h, app) => {
    const js = await text(app, "/assets/app.js");
    assert.match(js.res.headers.get("content-type") ?? "", /text\/javascript/);
    assert.match(js.body, /new EventSource\("\/api\/events"\)/);
    const css = await text(app, "/assets/app.css");
    assert.match(css.res.headers.get("content-type") ?? "", /text\/css/);
    assert.match(css.body, /@media \(max-width: 720px\)/);
  });
});

Deno.test("GET /api/fragment filters runs by caller and by status", async () => {
  await withApp(async (h, app) => {
    await seed(h);
    assert.deepEqual(runIds((await text(app, "/api/fragment?panel=runs&caller=codex")).body), [
      "run-5",
      "run-3",
      "run-1",
    ]);
    assert.deepEqual(runIds((await text(app, "/api/fragment?panel=runs&status=blocked")).body), ["run-4"]);
    assert.deepEqual(
      runIds((await text(app, "/api/fragment?panel=runs&caller=cli&status=running")).body),
      [],
    );
    const all = (await text(app, "/api/fragment")).body;
    assert.match(all, /Connections/);
    assert.match(all, /By caller/);
  });
});

Deno.test("GET /api/fragment?expand= renders the detail row from the run's files", async () => {
  await withApp(async (h, app) => {
    await writeFixtureRun(h.paths, fixtureState("run-rich", { status: "reviewing" }), {
      goal: "Make add() add",
      verification: {
        passed: false,
        commands: [{
          argv: ["deno", "test", "add_test.ts"],
          passed: false,
          exitCode: 1,
          timedOut: false,
          durationMs: 1500,
        }],
        security: {
          passed: true,
          issues: [{ code: "SCOPE", file: "src/x.ts", message: "outside allowedPaths" }],
          changedFiles: ["src/add.ts"],
        },
      },
      selfReview: {
        summary: "Changed one operator",
        acceptanceEvidence: [{ criterion: "add(2,3) is 5", status: "met" }],
      },
      review: {
        verdict: "revise",
        summary: "needs a test",
        findings: [{ priority: "P1", file: "src/add.ts", line: 2, problem: "no test" }],
      },
      workerLog: "10:00:01 [run] says: working\n10:00:02 [run] tool ok\n",
    });
    const { body } = await text(app, "/api/fragment?panel=runs&expand=run-rich");
    for (
      const part of [
        'id="detail-run-rich"',
        "Make add() add",
        "deno test add_test.ts",
        "outside allowedPaths",
        "src/add.ts",
        "Changed one operator",
        "needs a test",
        "no test",
        "worker.log (live)",
        "10:00:02 [run] tool ok",
        "prepared",
      ]
    ) assert.ok(body.includes(part), `detail shows ${part}`);
    const collapsed = (await text(app, "/api/fragment?panel=runs")).body;
    assert.ok(!collapsed.includes('id="detail-run-rich"'));
  });
});

Deno.test("bad query parameters answer 400 and name the parameter", async () => {
  await withApp(async (_h, app) => {
    for (
      const [query, name] of [
        ["status=bogus", "status"],
        ["page=0", "page"],
        ["expand=../etc", "expand"],
        ["caller=%3Cb%3E", "caller"],
        ["limit=100000", "limit"],
        ["sneaky=1", "sneaky"],
      ]
    ) {
      for (const route of ["/", "/api/fragment", "/api/runs"]) {
        const { res, body } = await text(app, `${route}?${query}`);
        assert.equal(res.status, 400, `${route}?${query}`);
        assert.match(JSON.parse(body).error.message, new RegExp(name));
      }
    }
  });
});

Deno.test("GET /api/runs filters by caller and status and paginates", async () => {
  await withApp(async (h, app) => {
    await seed(h);
    const page1 = JSON.parse((await text(app, "/api/runs?limit=4")).body);
    assert.equal(page1.total, 6);
    assert.deepEqual(page1.runs.map((r: { runId: string }) => r.runId), ["run-5", "run-4", "run-3", "run-2"]);
    const page2 = JSON.parse((await text(app, "/api/runs?limit=4&page=2")).body);
    assert.deepEqual(page2.runs.map((r: { runId: string }) => r.runId), ["run-1", "run-0"]);
    const codex = JSON.parse((await text(app, "/api/runs?caller=codex&status=integrated")).body);
    assert.deepEqual(codex.runs.map((r: { runId: string }) => r.runId), ["run-3", "run-1"]);
    assert.equal(codex.totals.runs, 6);
    assert.equal(codex.runs[0].usage.input, 1200);
  });
});

Deno.test("GET /?static=1 is the page without its script, and its links keep the flag", async () => {
  await withApp(async (h, app) => {
    await seed(h);
    const { body } = await text(app, "/?static=1&caller=codex");
    assert.doesNotMatch(body, /<script/);
    assert.match(body, /static view: no live updates/);
    assert.match(body, /<input type="hidden" name="static" value="1">/, "the filter form keeps it");
    assert.match(body, /href="\?caller=codex&amp;expand=run-5&amp;static=1"/, "▸ keeps it");
    assert.match(body, /href="\?caller=codex&amp;by=week&amp;static=1"/, "the period switch keeps it");
    assert.match((await text(app, "/")).body, /<script src="\/assets\/app.js" defer>/);
  });
});

Deno.test("GET /api/runs/RUN gives a run's transitions and its time in each status; an unknown run is a 404", async () => {
  await withApp(async (h, app) => {
    const at = (s: number) => new Date(Date.UTC(2025, 0, 1, 0, 0, s)).toISOString();
    await writeFixtureRun(
      h.paths,
      fixtureState("run-timed", {
        status: "failed",
        transitions: [
          { from: null, to: "prepared", at: at(0), reason: "" },
          { from: "prepared", to: "running", at: at(3), reason: "" },
          { from: "running", to: "failed", at: at(10), reason: "" },
        ] as never,
      }),
    );
    const { res, body } = await text(app, "/api/runs/run-timed");
    assert.equal(res.status, 200);
    const run = JSON.parse(body).run;
    assert.deepEqual(run.phases, [{ phase: "prepared", ms: 3_000 }, { phase: "running", ms: 7_000 }]);
    assert.deepEqual(run.transitions.map((t: { to: string }) => t.to), ["prepared", "running", "failed"]);
    assert.equal((await text(app, "/api/runs/no-such-run")).res.status, 404);
    assert.equal((await text(app, "/api/runs/..%2Fetc")).res.status, 404);
  });
});
