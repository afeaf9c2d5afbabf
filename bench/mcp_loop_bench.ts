/**
 * The resident path: the small loop of bench/small_loop_bench.ts (`prepare → run → verify → approve →
 * integrate`, under bwrap, a 3-file repo, an instant replay worker, one `node -e` check) driven through ONE
 * `spot mcp` process by the SDK's MCP client over stdio, against the git floor on the same repo, in
 * interleaved rounds. The server starts once, before the rounds (a parent keeps it running), so no round
 * pays a Deno start-up for a verb. Prints `BENCH mcp_loop_vs_git_floor ratio=<x> target=2.5` with each
 * tool call's median, and the same loop as five CLI processes in the same rounds (`cli_loop_ms`,
 * `mcp_over_cli`: what the resident path saves, the machine's load cancelled). SPOT_TIMINGS=1 prints the
 * server's timings table (summed over every call) when it stops; BENCH_ROUNDS sets the rounds.
 */
// @ts-types="@modelcontextprotocol/sdk/client/index"
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
// @ts-types="@modelcontextprotocol/sdk/client/stdio"
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import {
  approval,
  CLI,
  cliLoop,
  DENO_CONFIG,
  floorOnce,
  smallFixture,
  undoIntegration,
  type Verb,
  VERBS,
} from "./small_fixture.ts";
import { benchRatio, finishBench, median, quantile, range } from "./bench_line.ts";

const ROUNDS = Number(Deno.env.get("BENCH_ROUNDS") ?? 7);
const TARGET = 2.5;

const fixture = await smallFixture("spot-mcp-bench-");
const transport = new StdioClientTransport({
  command: Deno.execPath(),
  args: ["run", "--no-prompt", "--allow-all", "--config", DENO_CONFIG, CLI, "mcp"],
  env: fixture.env,
  cwd: fixture.repo,
  stderr: "inherit",
});
const client = new Client({ name: "spot-bench", version: "1.0.0" });
await client.connect(transport);

async function tool(
  name: string,
  args: Record<string, unknown>,
): Promise<{ ms: number; out: Record<string, unknown> }> {
  const started = performance.now();
  const r = await client.callTool({ name, arguments: args }, undefined, { timeout: 120_000 });
  const ms = performance.now() - started;
  const out = (r.structuredContent ?? {}) as Record<string, unknown>;
  if (r.isError === true) throw new Error(`${name} failed: ${JSON.stringify(out)}`);
  return { ms, out };
}

async function loopOnce(): Promise<{ total: number; verbs: Record<Verb, number> }> {
  const verbs = {} as Record<Verb, number>;
  const prep = await tool("spot_prepare", {
    task: fixture.taskFile,
    profile: "replay",
    model: fixture.episode,
    sandbox: "bwrap",
  });
  verbs.prepare = prep.ms;
  const runId = String(prep.out.runId);
  verbs.run = (await tool("spot_run", { runId, detach: false })).ms;
  const verify = await tool("spot_verify", { runId });
  verbs.verify = verify.ms;
  if (verify.out.passed !== true) {
    throw new Error(`mcp loop: verification did not pass: ${JSON.stringify(verify.out)}`);
  }
  verbs.approve = (await tool("spot_approve", {
    runId,
    review: approval(verify.out.diffSha256),
    message: "bench",
  })).ms;
  verbs.integrate = (await tool("spot_integrate", { runId })).ms;
  await undoIntegration(fixture);
  return { total: VERBS.reduce((sum, v) => sum + verbs[v], 0), verbs };
}

try {
  await loopOnce(); // warms the server's module graph, Deno's module cache and git's object store
  await floorOnce(fixture, -1);
  await cliLoop(fixture);
  const loops: number[] = [];
  const cliLoops: number[] = [];
  const floors: number[] = [];
  const perVerb: Record<Verb, number[]> = { prepare: [], run: [], verify: [], approve: [], integrate: [] };
  for (let i = 0; i < ROUNDS; i++) {
    const loop = await loopOnce();
    loops.push(loop.total);
    for (const v of VERBS) perVerb[v].push(loop.verbs[v]);
    cliLoops.push((await cliLoop(fixture)).total);
    floors.push(await floorOnce(fixture, i));
  }
  const detail = VERBS.map((v) =>
    `${v}_ms=${median(perVerb[v]).toFixed(0)} ${v}_spread_ms=${range(perVerb[v])}`
  )
    .join(" ");
  benchRatio("mcp_loop_vs_git_floor", loops, floors, {
    target: TARGET,
    names: ["loop", "floor"],
    paired: true,
    detail: `${detail} cli_loop_ms=${median(cliLoops).toFixed(0)} cli_loop_spread_ms=${range(cliLoops)} ` +
      `mcp_over_cli=${(median(loops) / median(cliLoops)).toFixed(3)} mcp_over_cli_spread=${
        quantile(loops.map((x, i) => x / cliLoops[i]), 0.25).toFixed(3)
      }..${quantile(loops.map((x, i) => x / cliLoops[i]), 0.75).toFixed(3)} sandbox=bwrap files=3 server=one`,
  });
} finally {
  await client.close();
  await Deno.remove(fixture.dir, { recursive: true });
}
finishBench();
