/**
 * A real parent agent drives spot over MCP: the pinned Claude Code CLI (headless, `--mcp-config`) and the
 * pinned Codex CLI (`codex exec`, `[mcp_servers.spot]` in its config.toml) each run with `spot mcp` as their
 * MCP server and the scripted model server as their model. The model's answers are tool calls
 * (tests/parent/brain.ts), the CLI carries each one to spot and the result back, and so a whole delegation
 * (parent-meter → prepare → run → verify → self-review → approve → integrate → report) and a small job (a
 * builder and its reviewer: init → start → wait → integrate → status) complete on fixture repositories,
 * offline. Every tool the skill names must be among those the CLI offered its model.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { availability } from "../conformance/workers.ts";
import { makeRepo, spotEnv, writeEpisode } from "../helpers.ts";
import { startModelServer } from "../model_server/mod.ts";
import { demoScenario } from "../scenario.ts";
import { FINAL, type Results, scriptedParent, spotTool, type Step } from "./brain.ts";
import { type ParentOptions, type ParentRun, runClaudeParent } from "./claude.ts";
import { runCodexParent } from "./codex.ts";
import { runGeminiParent } from "./gemini.ts";
import { skillTools } from "./skill_tools.ts";

/** The parent CLI's start-up, spot mcp's, a replay loop and a replay job, on a loaded two-core machine. */
const TIMEOUT_MS = 8 * 60_000;

const last = (r: Results) => r.at(-1)!.json;
const runIdOf = (r: Results) => String(r.find((x) => x.json.command === "prepare")?.json.runId);
const jobIdOf = (r: Results) => String(r.find((x) => x.json.command === "job init")?.json.jobId);

function selfReport(): string {
  const report = {
    schemaVersion: 1,
    runId: "{{runId}}",
    diffSha256: "{{diffSha256}}",
    acceptanceEvidence: [
      {
        criterion: "add(2, 3) returns 5",
        status: "met",
        evidence: [{ file: "add.ts", line: 2, note: "a + b" }],
      },
      { criterion: "add_test.ts passes unchanged", status: "met", evidence: [{ file: "add.ts", line: 2 }] },
    ],
    findings: [],
    uncertainCriteria: [],
    summary: "The operator is fixed.",
  };
  return "Report:\n```json\n" + JSON.stringify(report) + "\n```";
}

async function jobFixture(dir: string) {
  const repo = await makeRepo({ "api/x.ts": "export const x = 1;\n", "README.md": "# r\n" }, dir);
  const episode = async (name: string, text: string, ops: Record<string, unknown>[] = []) => {
    const file = join(dir, `${name}.jsonl`);
    await writeEpisode(file, [...ops, { op: "say", text }]);
    return file;
  };
  const result = (value: Record<string, unknown>) =>
    "Done.\n```json\n" + JSON.stringify({ status: "succeeded", ...value }) + "\n```";
  const builder = await episode("api", result({ summary: "x is 2", changedFiles: ["api/x.ts"] }), [
    { op: "write", path: "api/x.ts", content: "export const x = 2;\n" },
  ]);
  const reviewer = await episode(
    "review",
    result({
      summary: "looks right",
      review: [{ taskId: "api", fingerprint: "{{fingerprint:api}}", verdict: "approve" }],
    }),
  );
  const job = {
    approval: "the parent test",
    cwd: repo,
    allowWrites: true,
    noIntegratedChecksReason: "a constant",
    tasks: [
      {
        id: "api",
        role: "builder",
        task: "Set x to 2",
        acceptance: ["x is 2"],
        ownership: ["api"],
        checks: [{ id: "x", argv: ["grep", "-rq", "x = 2", "."] }],
        model: { profile: "replay", id: builder },
      },
      {
        id: "review",
        role: "reviewer",
        task: "Review api",
        acceptance: ["reviewed"],
        after: ["api"],
        reviewOf: "api",
        model: { profile: "replay", id: reviewer },
      },
    ],
  };
  return { repo, job };
}

interface Parent {
  cli: string;
  name: string;
  run: (binary: string, o: ParentOptions) => Promise<ParentRun>;
  /**
   * What spot_parent_meter makes of the parent over MCP. `session`: its own session, named by the id the CLI
   * gives the MCP servers it starts (Claude Code's CLAUDE_CODE_SESSION_ID). `no-thread-id`: refused, never a
   * guess, because Codex 0.171 gives CODEX_THREAD_ID to its shell commands only (docs/usage.md); held here so
   * the test notices the day Codex passes it on. `unmetered`: a parent spot does not meter (Gemini), said
   * as `available: false`.
   */
  meter: "session" | "no-thread-id" | "unmetered";
}

const PARENTS: Parent[] = [
  { cli: "claude", name: "Claude Code", run: runClaudeParent, meter: "session" },
  { cli: "codex", name: "Codex", run: runCodexParent, meter: "no-thread-id" },
  { cli: "gemini", name: "Gemini", run: runGeminiParent, meter: "unmetered" },
];

for (const parentCli of PARENTS) {
  const found = availability(parentCli.cli);
  Deno.test({
    name:
      `${parentCli.name} as the parent drives a delegation and a job through spot mcp, offered every tool ` +
      "the skill names",
    ignore: "ignore" in found,
    sanitizeResources: false,
    sanitizeOps: false,
    async fn() {
      if (!("binary" in found)) throw new Error("fail" in found ? found.fail : found.reason);
      await delegate(found.binary, parentCli);
    },
  });
}

async function delegate(binary: string, { run: runParent, meter: metering }: Parent) {
  const env = await spotEnv({ selfReview: { minDiffBytes: 0, minSurfaceBytes: 0 } });
  const sc = await demoScenario(env.dir, [
    {
      op: "write",
      path: "add.ts",
      content: "export function add(a: number, b: number): number {\n  return a + b;\n}\n",
    },
    { op: "usage", input: 1800, output: 240, cacheRead: 600, cacheWrite: 0, costUsd: 0.0009 },
    { op: "say", text: "Changed the subtraction to an addition in add()." },
    { op: "say", phase: "self-review", text: selfReport() },
  ]);
  const task = JSON.parse(await Deno.readTextFile(sc.taskFile));
  const { repo: jobRepo, job } = await jobFixture(env.dir);
  const start = join(env.dir, "usage-start.json");
  const steps: Step[] = [
    { tool: "spot_parent_meter", args: () => ({ output: start }) },
    {
      tool: "spot_prepare",
      args: () => ({
        task,
        profile: "replay",
        model: sc.episodeFile,
        ...(metering === "no-thread-id" ? {} : { usageStart: start }),
        cwd: sc.repo,
      }),
    },
    { tool: "spot_run", args: (r) => ({ runId: runIdOf(r), detach: false }) },
    { tool: "spot_verify", args: (r) => ({ runId: runIdOf(r) }) },
    { tool: "spot_self_review", args: (r) => ({ runId: runIdOf(r) }) },
    { tool: "spot_diff", args: (r) => ({ runId: runIdOf(r), hunks: true }) },
    {
      tool: "spot_approve",
      args: (r) => ({
        runId: runIdOf(r),
        message: "Fix add() to return the sum",
        review: {
          schemaVersion: 1,
          verdict: "approve",
          diffSha256: r.find((x) => x.json.command === "verify")?.json.diffSha256,
          findings: [],
          verificationGaps: [],
          summary: "The checks pass and the hunk is the fix",
        },
      }),
    },
    { tool: "spot_integrate", args: (r) => ({ runId: runIdOf(r) }) },
    { tool: "spot_report", args: (r) => ({ runId: runIdOf(r), format: "parent" }) },
    { tool: "spot_job_init", args: () => ({ job, cwd: jobRepo }) },
    { tool: "spot_job_start", args: (r) => ({ jobId: jobIdOf(r) }) },
    { tool: "spot_job_wait", args: (r) => ({ jobId: jobIdOf(r), timeoutMs: 240_000 }) },
    { tool: "spot_job_integrate", args: (r) => ({ jobId: jobIdOf(r) }) },
    { tool: "spot_job_status", args: (r) => ({ jobId: jobIdOf(r) }) },
  ];
  const brain = scriptedParent(steps);
  const model = startModelServer({ brain: brain.decide });
  try {
    const parent = await runParent(binary, {
      env,
      cwd: sc.repo,
      modelUrl: model.url,
      prompt: "Delegate the fix of add() and the x job to spot, then report.",
      timeoutMs: TIMEOUT_MS,
    });
    const results = brain.results();
    const story = `parent exited ${parent.exitCode}${parent.timedOut ? " (timed out)" : ""}; ` +
      `${results.length} tool results:\n${results.map((r) => r.text.slice(0, 400)).join("\n")}\n` +
      `stderr: ${parent.stderr.slice(-2000)}`;

    // Every tool the skill names was offered to the parent's model by its CLI, as spot mcp listed it.
    const offered = brain.offered().map(spotTool).filter((t) => t !== undefined);
    const named = await skillTools();
    assert.ok(named.length >= 10, `the skill names tools: ${named}`);
    const missing = named.filter((t) => !offered.includes(t));
    assert.deepEqual(missing, [], `tools the skill names that spot mcp did not offer the parent; ${story}`);

    assert.equal(parent.exitCode, 0, story);
    assert.equal(results.length, steps.length, story);
    const [meter, ...rest] = results;
    if (metering === "session") {
      // The meter read the parent's own session, named by the parent CLI itself.
      assert.equal(meter.json.threadId, parent.session, meter.text);
    } else if (metering === "unmetered") {
      assert.deepEqual([meter.json.ok, meter.json.available], [true, false], meter.text);
    } else {
      const error = meter.json.error as { code: string; message: string } | undefined;
      assert.equal(error?.code, "PARENT_METER_FAILED", meter.text);
      assert.match(error.message, /no thread id: set PARENT_THREAD_ID or CODEX_THREAD_ID/);
    }
    // The parent report is text: a CLI that hands its model only a tool's text content (Gemini) gets just that.
    const isReport = (r: Results[number]) => r.json.command === "report" || /^Implementation: /m.test(r.text);
    for (const [i, r] of rest.entries()) {
      if (isReport(r) && r.json.ok === undefined) continue;
      assert.equal(r.json.ok, true, `step ${i + 1} (${steps[i + 1].tool}) failed: ${r.text}\n${story}`);
    }
    const by = (command: string) => results.find((r) => r.json.command === command)!.json;
    const report = results.find(isReport)!;
    assert.equal(by("run").status, "verifying");
    assert.equal(by("verify").passed, true);
    assert.equal(by("self-review").reviewTier, "A");
    assert.equal(by("approve").status, "committed");
    assert.equal(by("integrate").status, "integrated");
    assert.match(
      String(report.json.parentText ?? report.text),
      metering === "session" ? /parent tokens/i : /parent spend not measured/,
    );
    assert.match(await Deno.readTextFile(join(sc.repo, "add.ts")), /a \+ b/);
    assert.equal(by("job wait").status, "succeeded");
    assert.equal(await Deno.readTextFile(join(jobRepo, "api/x.ts")), "export const x = 2;\n");
    const status = last(results);
    assert.deepEqual(
      (status.tasks as { id: string; state: string }[]).map((t) => `${t.id}:${t.state}`),
      ["api:succeeded", "review:succeeded"],
    );
    assert.equal(parent.final, FINAL, story);
  } finally {
    await model.close();
    await Deno.remove(env.dir, { recursive: true }).catch(() => {});
  }
}
