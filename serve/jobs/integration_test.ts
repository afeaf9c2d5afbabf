/** The job page's Integration entry says exactly what landed: nothing, every commit, a rollback, a failure. */
import assert from "node:assert/strict";
import { updateJob } from "../../graphs/store.ts";
import { writeFixtureJob } from "../../tests/jobs/job_fixture.ts";
import { text, withApp } from "../../tests/serve_harness.ts";
import { fixtureState, writeFixtureRun } from "../../tests/fixture_runs.ts";

const J = "job-20250103-000000-cccccc";
const C1 = "1".repeat(40);
const C2 = "2".repeat(40);

const entry = (body: string) => {
  const start = body.indexOf('<dd class="job-integration">');
  return body.slice(start, body.indexOf("</dd>", start));
};

Deno.test("the job page shows a failed integration's builder and reason, never 'not yet' beside landed work", async () => {
  await withApp(async (h, app) => {
    await writeFixtureJob(h.paths, {
      jobId: J,
      allowWrites: true,
      tasks: [{ id: "api", role: "builder" }, { id: "ui", role: "builder" }],
      records: {
        api: { state: "succeeded", runId: `${J}.api` },
        ui: { state: "succeeded", runId: `${J}.ui` },
      },
      status: "succeeded",
    });
    assert.match(entry((await text(app, `/jobs/${J}`)).body), /not yet/);

    const failure = {
      at: "2025-01-03T00:01:00.000Z",
      task: "ui",
      code: "POST_INTEGRATE_VERIFY_FAILED",
      reason: "its checks failed <b>",
    };
    await updateJob(h.paths, J, (_, s) => ({ state: { ...s, integrationFailure: failure } }));
    const failed = entry((await text(app, `/jobs/${J}`)).body);
    assert.doesNotMatch(failed, /not yet/);
    assert.match(failed, /nothing landed by the last attempt/);
    assert.match(failed, /at builder <b>ui<\/b>/);
    assert.match(failed, /POST_INTEGRATE_VERIFY_FAILED/);
    assert.match(failed, /its checks failed &lt;b&gt;/, "the reason is escaped");

    const commits = [{ task: "api", runId: `${J}.api`, commit: C1 }, {
      task: "ui",
      runId: `${J}.ui`,
      commit: C2,
    }];
    const integration = {
      mode: "commit" as const,
      at: "2025-01-03T00:02:00.000Z",
      onto: "0".repeat(40),
      commits,
      integratedChecks: "passed" as const,
    };
    await updateJob(h.paths, J, (_, s) => ({ state: { ...s, integration, integrationFailure: undefined } }));
    const landed = entry((await text(app, `/jobs/${J}`)).body);
    assert.match(landed, /status-landed/);
    assert.match(
      landed,
      new RegExp(`api <code>${C1.slice(0, 12)}</code>.*ui <code>${C2.slice(0, 12)}</code>`, "s"),
    );
    assert.match(landed, /integrated checks passed/);
    const api = JSON.parse((await text(app, `/api/jobs/${J}`)).body);
    assert.equal(api.job.integration.landed, true);
    assert.deepEqual(api.job.integration.commits, commits);

    await updateJob(h.paths, J, (_, s) => ({
      state: { ...s, integration: { ...integration, rolledBackAt: "2025-01-03T00:03:00.000Z" } },
    }));
    assert.match(entry((await text(app, `/jobs/${J}`)).body), /rolled back.*none of it stands/s);
  });
});

Deno.test("the job page names a builder landed by hand outside the job's integration, not 'not yet'", async () => {
  const J2 = "job-20250103-000000-dddddd";
  await withApp(async (h, app) => {
    await writeFixtureJob(h.paths, {
      jobId: J2,
      allowWrites: true,
      tasks: [{ id: "api", role: "builder" }, { id: "ui", role: "builder" }],
      records: {
        api: { state: "succeeded", runId: `${J2}.api` },
        ui: { state: "succeeded", runId: `${J2}.ui` },
      },
      status: "succeeded",
    });
    await writeFixtureRun(h.paths, fixtureState(`${J2}.api`, { status: "integrated" }));
    await writeFixtureRun(h.paths, fixtureState(`${J2}.ui`, { status: "reviewing" }));
    const shown = entry((await text(app, `/jobs/${J2}`)).body);
    assert.doesNotMatch(shown, /not yet/);
    assert.match(shown, /landed outside the job/);
    assert.match(shown, new RegExp(`<b>api</b> <code>${J2}\\.api</code>`));
    assert.doesNotMatch(shown, /<b>ui<\/b>/, "a builder whose run is not integrated is not named");
    const api = JSON.parse((await text(app, `/api/jobs/${J2}`)).body);
    assert.deepEqual(api.job.integration.landedOutside, [{ task: "api", runId: `${J2}.api` }]);
  });
});
