/**
 * `spot mcp --http`: the server scenarios of the MCP conformance suite that apply to a tools server, run
 * against the real CLI on a free loopback port; the bearer token; the same tools as stdio; a busy port.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
// @ts-types="@modelcontextprotocol/sdk/client/index"
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
// @ts-types="@modelcontextprotocol/sdk/client/streamableHttp"
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import config from "../../deno.json" with { type: "json" };
import { spawnProcess } from "../../sandbox/spawn.ts";
import { toolName, verbOn, VERBS } from "../../table/mod.ts";
import { ROOT, spot, spotEnv } from "../helpers.ts";
import { startHttp } from "./http.ts";

/** The suite's pinned version (deno.json's imports, locked in deno.lock). */
const CONFORMANCE = config.imports["@modelcontextprotocol/conformance"];
/** What a tools-and-resources server must pass; the rest test features spot does not offer (prompts, …). */
const SCENARIOS = [
  "server-initialize",
  "ping",
  "tools-list",
  "logging-set-level",
  "resources-list",
  "dns-rebinding-protection",
];

async function conformance(url: string, scenario: string) {
  const env: Record<string, string> = { PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin", NO_COLOR: "1" };
  for (const name of ["HOME", "DENO_DIR"]) if (Deno.env.get(name)) env[name] = Deno.env.get(name)!;
  return await spawnProcess([
    Deno.execPath(),
    "run",
    "--allow-all",
    "--no-prompt",
    "--config",
    join(ROOT, "deno.json"),
    CONFORMANCE,
    "server",
    "--url",
    url,
    "--scenario",
    scenario,
  ], { cwd: ROOT, env, timeoutMs: 180_000 });
}

Deno.test("spot mcp --http passes the conformance suite's server scenarios for a tools server", async () => {
  assert.match(CONFORMANCE, /^npm:@modelcontextprotocol\/conformance@\d+\.\d+\.\d+$/, "the suite is pinned");
  const env = await spotEnv();
  const server = await startHttp(env, env.dir);
  try {
    assert.match(server.url, /^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
    for (const scenario of SCENARIOS) {
      const r = await conformance(server.url, scenario);
      const out = r.stdout + r.stderr;
      assert.equal(r.exitCode, 0, `${scenario}:\n${out}`);
      const [, passed, total, failed] = /Passed: (\d+)\/(\d+), (\d+) failed/.exec(out) ?? [];
      assert.ok(Number(total) > 0 && passed === total && failed === "0", `${scenario}:\n${out}`);
    }
  } finally {
    const end = await server.stop();
    assert.equal(end.exitCode, 0, end.stderr);
    const json = JSON.parse(end.stdout.trim());
    assert.equal(json.ok, true);
    assert.equal(json.command, "mcp");
    assert.equal(json.stopped, true);
    assert.ok(json.sessions >= SCENARIOS.length, end.stdout);
  }
});

Deno.test("spot mcp --http with a token: refused without it, and with it the same tools as stdio", async () => {
  const env = await spotEnv();
  const token = crypto.randomUUID();
  env.env.SPOT_MCP_TOKEN = token;
  const server = await startHttp(env, env.dir);
  try {
    const init = {
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "t", version: "1" } },
    };
    const headers = { "content-type": "application/json", accept: "application/json, text/event-stream" };
    for (const authorization of [undefined, "Bearer wrong", `Basic ${btoa(`x:${token}`)}`]) {
      const h: Record<string, string> = { ...headers, ...(authorization ? { authorization } : {}) };
      const r = await fetch(server.url, { method: "POST", headers: h, body: JSON.stringify(init) });
      assert.equal(r.status, 401, `${authorization} was let in`);
      assert.equal(r.headers.get("www-authenticate"), "Bearer");
      await r.body?.cancel();
    }
    const wrongPath = await fetch(server.url.replace(/\/mcp$/, "/other"), { method: "POST", body: "{}" });
    assert.equal(wrongPath.status, 404);
    await wrongPath.body?.cancel();

    const client = new Client({ name: "spot-test", version: "1.0.0" });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(server.url), {
        requestInit: { headers: { authorization: `Bearer ${token}` } },
      }),
    );
    try {
      const tools = (await client.listTools()).tools.map((t) => t.name).sort();
      const table = VERBS.filter((v) => verbOn(v, "mcp")).map(toolName).sort();
      assert.deepEqual(tools, table);
      const list = await client.callTool({ name: "spot_list", arguments: {} });
      assert.equal(list.isError, undefined, JSON.stringify(list));
      assert.deepEqual((list.structuredContent as { ok: boolean; runs: unknown[] }).runs, []);
    } finally {
      await client.close();
    }
  } finally {
    const end = await server.stop();
    assert.equal(end.exitCode, 0, end.stderr);
    assert.match(end.stderr, /\(bearer token required\)/);
  }
});

Deno.test("spot mcp --http on a port already taken fails with SERVE_FAILED, exit 3", async () => {
  const env = await spotEnv();
  const taken = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  try {
    const r = await spot(env, env.dir, "mcp", "--http", "--port", String(taken.addr.port));
    assert.equal(r.code, 3, r.stderr);
    assert.equal((r.json.error as { code: string }).code, "SERVE_FAILED");
    assert.match((r.json.error as { message: string }).message, /^Cannot serve MCP on 127\.0\.0\.1:\d+: /);
  } finally {
    taken.close();
  }
});
