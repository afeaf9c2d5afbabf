/** The dashboard's guards: keys never shown, CSRF, Host and Origin checks, GETs without side effects. */
import assert from "node:assert/strict";
import { createApp } from "./app.ts";
import { join } from "node:path";
import { fixtureHome } from "../tests/fixture_runs.ts";
import { BASE, BINDING, fakeVersions, SECRET, seed, text, withApp } from "../tests/serve_harness.ts";

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
