import assert from "node:assert/strict";
import { join } from "node:path";
import { createApp } from "./app.ts";
import type { VersionRunner } from "./connections.ts";
import { type FixtureHome, fixtureHome, fixtureState, writeFixtureRun } from "../tests/fixture_runs.ts";
import type { Binding } from "./guard.ts";

const BASE = "http://127.0.0.1:7317";
const BINDING: Binding = { hostname: "127.0.0.1", port: 7317 };
const SECRET = "sk-live-THIS-MUST-NEVER-SHOW";

function fakeVersions(): { runner: VersionRunner; calls: string[][] } {
  const calls: string[][] = [];
  return {
    calls,
    runner: (argv) => {
      calls.push(argv);
      return Promise.resolve({ exitCode: 0, stdout: "pi 9.9.9\n", stderr: "" });
    },
  };
}

async function withApp(
  fn: (
    h: FixtureHome,
    app: ReturnType<typeof createApp>,
    extra: { calls: string[][]; stop: AbortController },
  ) => Promise<void>,
  options: { pollMs?: number; heartbeatMs?: number } = {},
): Promise<void> {
  const h = await fixtureHome({ DEEPSEEK_API_KEY: SECRET });
  const versions = fakeVersions();
  const stop = new AbortController();
  const app = createApp({
    paths: h.paths,
    config: h.config,
    env: h.env,
    index: h.index,
    binding: { ...BINDING },
    csrfToken: "token-123",
    runVersion: versions.runner,
    signal: stop.signal,
    pollMs: options.pollMs ?? 50,
    heartbeatMs: options.heartbeatMs ?? 10_000,
    onError: () => {},
  });
  try {
    await fn(h, app, { calls: versions.calls, stop });
  } finally {
    stop.abort();
    await h.cleanup();
  }
}

async function seed(h: FixtureHome): Promise<void> {
  for (let i = 0; i < 6; i++) {
    await writeFixtureRun(
      h.paths,
      fixtureState(`run-${i}`, {
        caller: i % 2 ? "codex" : "cli",
        status: i === 5 ? "running" : i === 4 ? "blocked" : "integrated",
      }, `2025-01-0${i + 1}T00:00:00.000Z`),
    );
  }
}

async function text(app: ReturnType<typeof createApp>, path: string, init?: RequestInit) {
  const res = await app.request(`${BASE}${path}`, init);
  return { res, body: await res.text() };
}

function runIds(body: string): string[] {
  return [...body.matchAll(/data-run="([^"]+)"/g)].map((m) => m[1]);
}

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

Deno.test("GET /api/connections says whether a key is set, with an export hint, and never its value", async () => {
  await withApp(async (h, app, { calls }) => {
    await seed(h);
    const { body } = await text(app, "/api/connections");
    assert.ok(!body.includes(SECRET));
    const c = JSON.parse(body);
    const cheap = c.profiles.find((p: { name: string }) => p.name === "cheap");
    const spare = c.profiles.find((p: { name: string }) => p.name === "spare");
    assert.equal(cheap.credentialPresent, true);
    assert.equal(spare, undefined, "a profile with no reason to show is left out");
    assert.equal(c.profiles.find((p: { name: string }) => p.name === "replay").why.join(), "used by a run");
    assert.equal(cheap.exportHint, "export DEEPSEEK_API_KEY=YOUR_KEY_HERE");
    const html = (await text(app, "/api/fragment?panel=connections")).body;
    assert.ok(!html.includes(SECRET));
    assert.match(html, /DEEPSEEK_API_KEY is set/);
    assert.equal(calls.length, 0, "pi is not on this PATH, so nothing was run");
  });
});

Deno.test("a missing key shows as not set with a copyable export line", async () => {
  const h = await fixtureHome({});
  try {
    const app = createApp({ ...h, binding: BINDING, runVersion: fakeVersions().runner });
    const c = JSON.parse(await (await app.request(`${BASE}/api/connections`)).text());
    const cheap = c.profiles.find((p: { name: string }) => p.name === "cheap");
    assert.equal(cheap.credentialPresent, false);
    const html = await (await app.request(`${BASE}/api/fragment?panel=connections`)).text();
    assert.match(html, /DEEPSEEK_API_KEY is not set/);
    assert.match(html, /data-copy="export DEEPSEEK_API_KEY=YOUR_KEY_HERE"/);
  } finally {
    await h.cleanup();
  }
});

Deno.test("POST /api/connections/probe needs the page's CSRF token", async () => {
  await withApp(async (_h, app) => {
    const none = await app.request(`${BASE}/api/connections/probe`, { method: "POST" });
    assert.equal(none.status, 403);
    assert.equal((await none.json()).error.code, "CSRF_REFUSED");
    const wrong = await app.request(`${BASE}/api/connections/probe`, {
      method: "POST",
      headers: { "x-spot-csrf": "token-124" },
    });
    assert.equal(wrong.status, 403);
    const right = await app.request(`${BASE}/api/connections/probe`, {
      method: "POST",
      headers: { "x-spot-csrf": "token-123" },
    });
    assert.equal(right.status, 200);
    assert.equal((await right.json()).ok, true);
  });
});

Deno.test("a request for Host evil.example is refused on every route", async () => {
  await withApp(async (h, app) => {
    await seed(h);
    for (
      const route of [
        "/",
        "/api/fragment",
        "/api/runs",
        "/api/connections",
        "/api/events",
        "/health",
        "/assets/app.js",
      ]
    ) {
      const res = await app.request(`${BASE}${route}`, { headers: { host: "evil.example:7317" } });
      assert.equal(res.status, 403, route);
      assert.equal((await res.json()).error.code, "HOST_REFUSED");
    }
    const ok = await app.request(`${BASE}/health`, { headers: { host: "localhost:7317" } });
    assert.equal(ok.status, 200);
    const otherPort = await app.request(`${BASE}/health`, { headers: { host: "127.0.0.1:8080" } });
    assert.equal(otherPort.status, 403);
  });
});

Deno.test("cross-origin requests are refused and same-origin ones pass", async () => {
  await withApp(async (_h, app) => {
    const evil = await app.request(`${BASE}/api/runs`, { headers: { origin: "http://evil.example" } });
    assert.equal(evil.status, 403);
    assert.equal((await evil.json()).error.code, "ORIGIN_REFUSED");
    const same = await app.request(`${BASE}/api/runs`, { headers: { origin: BASE } });
    assert.equal(same.status, 200);
    const fetchFromSite = await app.request(`${BASE}/api/runs`, {
      headers: { "sec-fetch-site": "cross-site", "sec-fetch-mode": "cors" },
    });
    assert.equal(fetchFromSite.status, 403);
    const followedLink = await app.request(`${BASE}/`, {
      headers: { "sec-fetch-site": "cross-site", "sec-fetch-mode": "navigate" },
    });
    assert.equal(followedLink.status, 200);
  });
});

async function snapshot(dir: string): Promise<string> {
  const out: string[] = [];
  async function walk(d: string) {
    for await (const e of Deno.readDir(d)) {
      const p = join(d, e.name);
      if (e.isDirectory) await walk(p);
      else {out.push(
          `${p}:${(await Deno.readFile(p)).join(",").length}:${(await Deno.stat(p)).mtime?.getTime()}`,
        );}
    }
  }
  await walk(dir);
  return out.sort().join("\n");
}

Deno.test("GET requests leave every run directory untouched", async () => {
  await withApp(async (h, app) => {
    await seed(h);
    const before = await snapshot(h.paths.runsDir);
    for (
      const route of ["/", "/api/fragment?expand=run-1,run-5", "/api/runs", "/api/connections", "/health"]
    ) {
      assert.equal((await app.request(`${BASE}${route}`)).status, 200, route);
    }
    assert.equal(await snapshot(h.paths.runsDir), before);
  });
});

Deno.test("unknown routes answer 404 JSON and a failure answers a generic 500", async () => {
  await withApp(async (_h, app) => {
    const missing = await app.request(`${BASE}/nope`);
    assert.equal(missing.status, 404);
    assert.equal((await missing.json()).error.code, "NOT_FOUND");
    const put = await app.request(`${BASE}/api/runs`, {
      method: "PUT",
      headers: { "x-spot-csrf": "token-123" },
    });
    assert.equal(put.status, 404);
  });
  const h = await fixtureHome();
  try {
    const broken = { ...h.index, refresh: () => Promise.reject(new Error("disk on fire /secret/path")) };
    const errors: unknown[] = [];
    const app = createApp({
      ...h,
      index: broken as unknown as typeof h.index,
      binding: BINDING,
      onError: (e) => errors.push(e),
    });
    const res = await app.request(`${BASE}/api/runs`);
    assert.equal(res.status, 500);
    const body = await res.text();
    assert.ok(!body.includes("/secret/path"), "the client gets no internals");
    assert.equal(errors.length, 1);
  } finally {
    await h.cleanup();
  }
});
