/**
 * spot_run returns at once (the turn runs as a named agent, as `spot run --detach`), the agent tools follow
 * it, and a refusal of the CLI's is the same refusal through MCP, with nothing changed.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { spot, spotEnv, writeJson } from "../helpers.ts";
import { demoScenario, prepareScenario } from "../scenario.ts";
import { connect } from "./client.ts";

Deno.test("spot_run returns at once, spot_agent_watch follows it to STATUS=OK, and the loop goes on", async () => {
  const env = await spotEnv();
  const sc = await demoScenario(env.dir);
  const id = await prepareScenario(env, sc);
  const client = await connect(env, sc.repo);
  try {
    const started = await client.call("spot_run", { runId: id });
    assert.equal(started.isError, false, started.text);
    assert.equal(started.json.name, id);
    assert.equal(typeof started.json.pid, "number");
    const again = await client.call("spot_run", { runId: id });
    assert.equal(again.isError, true, "a second start of a live agent is refused, as by the CLI");
    const watch = await client.call("spot_agent_watch", { names: [id], interval: 0.3 });
    assert.equal(watch.isError, false, watch.text);
    // Every changed line is in the result; progress notifications carry them as they come, but the client may
    // handle the response before the last notification (seen once in CI on a loaded machine).
    assert.match(watch.text, /STATUS=OK/);
    assert.ok(watch.progress.length > 0, "no progress notification arrived");
    assert.ok(watch.progress.every((l) => watch.text.includes(l)), watch.progress.join("\n"));
    const poll = await client.call("spot_agent_poll", { name: id });
    assert.match(poll.text, /^STATUS=OK /);
    assert.equal(poll.json.line, poll.text);
    const ls = await client.call("spot_agent_ls", {});
    assert.match(ls.text, new RegExp(`^${id} STATUS=OK`, "m"));
    const peek = await client.call("spot_agent_peek", { name: id });
    assert.match(peek.text, /^WATCH RUN=/);
    const verify = await client.call("spot_verify", { runId: id });
    assert.equal(verify.json.passed, true, verify.text);
    const stop = await client.call("spot_agent_stop", { name: id });
    assert.equal(stop.isError, false, stop.text);
    const bad = await client.call("spot_agent_poll", { name: "../x" });
    assert.equal((bad.json.error as { code: string }).code, "AGENT_NAME_INVALID");
  } finally {
    await client.close();
  }
});

Deno.test("what the CLI refuses MCP refuses with the same code: approve on a hash that was not verified", async () => {
  const env = await spotEnv();
  const sc = await demoScenario(env.dir);
  const id = await prepareScenario(env, sc);
  const client = await connect(env, sc.repo);
  try {
    const early = await client.call("spot_approve", {
      runId: id,
      review: {
        schemaVersion: 1,
        verdict: "approve",
        diffSha256: "0".repeat(64),
        findings: [],
        verificationGaps: [],
        summary: "x",
      },
      message: "Too early",
    });
    const cliEarlyFile = join(env.dir, "early.json");
    await writeJson(cliEarlyFile, {
      schemaVersion: 1,
      verdict: "approve",
      diffSha256: "0".repeat(64),
      findings: [],
      verificationGaps: [],
      summary: "x",
    });
    const cliEarly = await spot(
      env,
      sc.repo,
      "approve",
      "--id",
      id,
      "--review",
      cliEarlyFile,
      "--message",
      "Too early",
    );
    assert.equal(early.isError, true);
    assert.deepEqual(
      early.json.error,
      cliEarly.json.error,
      "approve before verify: the CLI's error, word for word",
    );

    assert.equal((await client.call("spot_run", { runId: id, detach: false })).isError, false);
    const verify = await client.call("spot_verify", { runId: id });
    assert.equal(verify.json.passed, true);
    const wrong = {
      schemaVersion: 1,
      verdict: "approve",
      diffSha256: "f".repeat(64),
      findings: [],
      verificationGaps: [],
      summary: "x",
    };
    const viaMcp = await client.call("spot_approve", { runId: id, review: wrong, message: "Fix add()" });
    const wrongFile = join(env.dir, "wrong.json");
    await writeJson(wrongFile, wrong);
    const viaCli = await spot(
      env,
      sc.repo,
      "approve",
      "--id",
      id,
      "--review",
      wrongFile,
      "--message",
      "Fix add()",
    );
    assert.notEqual(viaCli.code, 0);
    assert.equal(viaMcp.isError, true);
    const code = (viaCli.json.error as { code: string }).code;
    assert.equal((viaMcp.json.error as { code: string }).code, code);
    const status = await client.call("spot_inspect", { runId: id });
    assert.equal((status.json.state as { status: string }).status, verify.json.status, "nothing changed");
    const empty = await client.call("spot_prepare", { task: {} });
    assert.equal((empty.json.error as { code: string }).code, "CONTRACT_INVALID");
    const misspelt = await client.call("spot_verify", { id });
    assert.equal(misspelt.isError, true, "an unknown key is refused, not dropped");
    assert.match(misspelt.text, /runId/);
  } finally {
    await client.close();
  }
});

/** What `deno run` loads at start-up: the modules reached from `root` through code imports, not type ones. */
async function runtimeGraph(root: string): Promise<string[]> {
  const repo = join(import.meta.dirname!, "..", "..");
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["info", "--json", "--config", join(repo, "deno.json"), root],
    cwd: repo,
    stdout: "piped",
    stderr: "null",
  }).output();
  const info = JSON.parse(new TextDecoder().decode(out.stdout)) as {
    roots: string[];
    modules: { specifier: string; dependencies?: { code?: { specifier: string } }[] }[];
    redirects: Record<string, string>;
  };
  const bySpecifier = new Map(info.modules.map((m) => [m.specifier, m]));
  const seen = new Set<string>();
  const todo = [...info.roots];
  while (todo.length > 0) {
    const at = todo.pop()!;
    const specifier = info.redirects[at] ?? at;
    if (seen.has(specifier)) continue;
    seen.add(specifier);
    for (const d of bySpecifier.get(specifier)?.dependencies ?? []) if (d.code) todo.push(d.code.specifier);
  }
  return [...seen];
}

Deno.test("the CLI's start-up graph holds no MCP SDK, zod or commander; a table module holds none either", async () => {
  // cli.ts loads cli/main.ts by its URL (from spot's JavaScript copy or the sources: boot/copy.ts).
  const entry = await runtimeGraph("cli.ts");
  assert.deepEqual(entry.filter((s) => !/\/(cli|boot\/copy|boot\/copy_stamps)\.ts$/.test(s)), []);
  const cli = await runtimeGraph("cli/main.ts");
  assert.ok(cli.some((s) => s.endsWith("table/index.ts")), "the walk reached the verb table's index");
  const heavy = (s: string) =>
    /modelcontextprotocol|\/mcp\/|npm:.*(zod|commander)|\/zod@|\/commander@/.test(s);
  assert.deepEqual(cli.filter(heavy), []);
  for (const module of ["loop", "runs", "host", "agent", "job"]) {
    const graph = await runtimeGraph(`table/${module}.ts`);
    assert.ok(graph.length > 3, `the walk reached table/${module}.ts`);
    assert.deepEqual(graph.filter(heavy), [], `table/${module}.ts loads what a fast call must not`);
  }
  const server = await runtimeGraph("mcp/server.ts");
  assert.ok(
    server.some((s) => s.includes("modelcontextprotocol")),
    "the walk sees the SDK where it is imported",
  );
});
