/**
 * The closed loop as tools, one per verb, each calling the same verb function the CLI's command table calls
 * with the same options (cli/commands.ts), so a call the CLI refuses is refused here with the same code.
 */
// @ts-types="@modelcontextprotocol/sdk/server/mcp"
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { z } from "zod";
import { lazy } from "../base/lazy.ts";
import { type CallExtra, callVerb, type Server } from "./call.ts";
import { inputFile } from "./inputs.ts";
import { cwd, document, output, runId, sandbox } from "./schema.ts";

type Verbs = typeof import("../verbs/mod.ts");
const verbs = () => lazy<Verbs>("../verbs/mod.ts", import.meta.url);
type Upkeep = typeof import("../upkeep/mod.ts");
const upkeep = () => lazy<Upkeep>("../upkeep/mod.ts", import.meta.url);
type Agents = typeof import("../agents/mod.ts");
const agents = () => lazy<Agents>("../agents/mod.ts", import.meta.url);

const TASK = document(
  "the task contract as an object (schemas/task_contract.schema.json); checked exactly as `spot prepare --task`",
);
const REVIEW = document(
  "the review as an object (schemas/review_result.schema.json), as `--review` takes it",
);

/** A tool whose only input is the run id, calling one verb with it. */
function byId(
  mcp: McpServer,
  server: Server,
  name: string,
  description: string,
  call: (v: Verbs, ctx: Parameters<Verbs["verifyRun"]>[0], id: string) => Promise<object>,
  interruptible = false,
): void {
  mcp.registerTool(
    `spot_${name.replace("-", "_")}`,
    { description, inputSchema: z.object({ id: runId }), outputSchema: output },
    ({ id }, extra) =>
      callVerb(server, extra as CallExtra, name, { id }, async (ctx) => call(await verbs(), ctx, id), {
        interruptible,
      }),
  );
}

export function registerLoopTools(mcp: McpServer, server: Server): void {
  mcp.registerTool("spot_doctor", {
    description: "Check that a task can run here with the chosen profile (spot doctor)",
    inputSchema: z.object({
      task: TASK,
      taskFile: z.string().optional().describe("a contract file instead of task"),
      profile: z.string().optional(),
      model: z.string().optional().describe("model (for replay: the episode file)"),
      probe: z.boolean().optional().describe("also ask the CLI for its model list"),
      sandbox,
      cwd,
    }),
    outputSchema: output,
  }, (a, extra) =>
    callVerb(server, extra as CallExtra, "doctor", a, async (ctx) => {
      const task = inputFile(ctx, "task", { object: a.task, file: a.taskFile }, false);
      const options = { task, profile: a.profile, model: a.model, probe: a.probe, sandbox: a.sandbox };
      return (await verbs()).doctor(ctx, options as never);
    }, { cwd: a.cwd }));

  mcp.registerTool(
    "spot_prepare",
    {
      description: "Check a contract, choose a worker and build its worktree (spot prepare). " +
        "A bad contract is CONTRACT_INVALID with each problem as file:line:col",
      inputSchema: z.object({
        task: TASK,
        taskFile: z.string().optional().describe("a contract file instead of task"),
        profile: z.string().optional().describe("worker profile (overrides routing)"),
        model: z.string().optional().describe("model override (for replay: the episode file)"),
        usageStart: z.string().optional().describe("parent usage snapshot file taken before planning"),
        sandbox,
        cwd,
      }),
      outputSchema: output,
    },
    (a, extra) =>
      callVerb(server, extra as CallExtra, "prepare", a, async (ctx) =>
        (await verbs()).prepare(ctx, {
          taskFile: inputFile(ctx, "task", { object: a.task, file: a.taskFile })!,
          profile: a.profile,
          model: a.model,
          usageStart: a.usageStart,
          sandbox: a.sandbox,
          // The picker reads a terminal; over MCP stdin is the protocol, so it is never offered.
          selectWorker: false,
          selectModel: false,
        }), { cwd: a.cwd }),
  );

  mcp.registerTool("spot_run", {
    description: "Run the worker's turn. By default returns at once: the turn runs as a named agent " +
      "(spot run --detach); follow it with spot_agent_poll or spot_agent_watch. wait: true blocks until the " +
      "turn ends (spot run), sending progress notifications when the request has a progress token",
    inputSchema: z.object({
      id: runId,
      wait: z.boolean().optional().describe("block until the turn ends (default false)"),
      name: z.string().optional().describe("without wait: the agent's name (default: the run id)"),
    }),
    outputSchema: output,
  }, ({ id, wait, name }, extra) => {
    if (wait === true) {
      return callVerb(
        server,
        extra as CallExtra,
        "run",
        { id },
        async (ctx) => (await verbs()).runWorker(ctx, id),
        { interruptible: true },
      );
    }
    return callVerb(server, extra as CallExtra, "run", { id, detach: true, name }, async (ctx) => {
      const a = await agents();
      return a.startAgent(ctx, name ?? a.agentNameFor(id), { runId: id });
    });
  });

  byId(
    mcp,
    server,
    "verify",
    "Scan the diff and run the contract's checks (spot verify)",
    (v, c, id) => v.verifyRun(c, id),
    true,
  );
  byId(mcp, server, "self-review", "Have the worker pre-digest its diff for review (spot self-review)", (
    v,
    c,
    id,
  ) => v.selfReviewRun(c, id), true);

  mcp.registerTool("spot_diff", {
    description: "The verified diff, or with hunks: true only what the review tier asks to read (spot diff)",
    inputSchema: z.object({ id: runId, hunks: z.boolean().optional() }),
    outputSchema: output,
  }, ({ id, hunks }, extra) =>
    callVerb(server, extra as CallExtra, "diff", { id, hunks }, async (ctx) => {
      const diff = await lazy<typeof import("../verbs/diff.ts")>("../verbs/diff.ts", import.meta.url);
      return diff.diffRun(ctx, id, { hunks: hunks === true });
    }));

  mcp.registerTool("spot_revise", {
    description: "Send review findings back to the worker for another turn (spot revise)",
    inputSchema: z.object({ id: runId, review: REVIEW, reviewFile: z.string().optional(), cwd }),
    outputSchema: output,
  }, (a, extra) =>
    callVerb(server, extra as CallExtra, "revise", a, async (ctx) =>
      (await verbs()).reviseRun(
        ctx,
        a.id,
        inputFile(ctx, "review", { object: a.review, file: a.reviewFile })!,
      ), { interruptible: true, cwd: a.cwd }));

  mcp.registerTool(
    "spot_approve",
    {
      description: "Approve the verified diff (bound to its sha256) and commit it on the worker branch",
      inputSchema: z.object({
        id: runId,
        review: REVIEW,
        reviewFile: z.string().optional(),
        message: z.string().describe("commit subject (one line, at most 200 characters)"),
        cwd,
      }),
      outputSchema: output,
    },
    (a, extra) =>
      callVerb(server, extra as CallExtra, "approve", a, async (ctx) =>
        (await verbs()).approveRun(
          ctx,
          a.id,
          inputFile(ctx, "review", { object: a.review, file: a.reviewFile })!,
          a.message,
        ), { cwd: a.cwd }),
  );

  byId(
    mcp,
    server,
    "integrate",
    "Check the approved commit in a scratch tree, then land it on the clean source branch (never pushes)",
    (v, c, id) => v.integrateRun(c, id),
    true,
  );

  mcp.registerTool("spot_report", {
    description: "Write metrics.json and report.md; format parent gives the final response for the user",
    inputSchema: z.object({
      id: runId,
      format: z.string().optional().describe("json (default) or parent"),
      chatgptImageGenerations: z.number().int().min(0).optional(),
    }),
    outputSchema: output,
  }, (a, extra) =>
    callVerb(
      server,
      extra as CallExtra,
      "report",
      a,
      async (ctx) => (await verbs()).reportRun(ctx, a.id, a),
      { text: a.format === "parent" ? (r) => String(r.parentText ?? "") : undefined },
    ));

  byId(
    mcp,
    server,
    "cleanup",
    "Remove a finished run's worktree (spot cleanup)",
    (v, c, id) => v.cleanupRun(c, id),
  );
  mcp.registerTool(
    "spot_discard",
    {
      description:
        "Drop an unfinished run (spot discard): its diff saved to diff.patch, worktree and branch " +
        "removed, the run ended discarded and its run slot freed",
      inputSchema: z.object({ id: runId }),
      outputSchema: output,
    },
    ({ id }, extra) =>
      callVerb(
        server,
        extra as CallExtra,
        "discard",
        { id },
        async (ctx) => (await upkeep()).discardRun(ctx, id),
      ),
  );
  mcp.registerTool(
    "spot_gc",
    {
      description:
        "Collect ended runs older than olderThan (default 7d) and what killed steps left (spot gc); " +
        "a preview unless confirm is true, every kept run with the reason",
      inputSchema: z.object({
        olderThan: z.string().optional().describe("30m, 12h, 7d (default 7d)"),
        confirm: z.boolean().optional().describe("collect (a preview otherwise)"),
      }),
      outputSchema: output,
    },
    (a, extra) =>
      callVerb(server, extra as CallExtra, "gc", a, async (ctx) => (await upkeep()).gcRuns(ctx, a)),
  );
  byId(
    mcp,
    server,
    "recover",
    "Resume an interrupted run in the right phase (spot recover)",
    (v, c, id) => v.recoverRun(c, id),
  );

  mcp.registerTool("spot_status", {
    description: "A run's state, verification, review and usage (spot inspect)",
    inputSchema: z.object({ id: runId }),
    outputSchema: output,
  }, ({ id }, extra) =>
    callVerb(server, extra as CallExtra, "inspect", { id }, async (ctx) => {
      const v = await lazy<typeof import("../verbs/inspect.ts")>("../verbs/inspect.ts", import.meta.url);
      return v.inspectRun(ctx, id);
    }, { loadConfig: false }));

  mcp.registerTool(
    "spot_list",
    {
      description: "List runs, newest first (spot list)",
      inputSchema: z.object({
        status: z.string().optional(),
        caller: z.string().optional(),
        running: z.boolean().optional(),
        limit: z.number().int().min(0).optional().describe("the newest N runs (default 200)"),
        offset: z.number().int().min(0).optional(),
        all: z.boolean().optional(),
      }),
      outputSchema: output,
    },
    (a, extra) =>
      callVerb(server, extra as CallExtra, "list", a, async (ctx) => (await verbs()).listRuns(ctx, a)),
  );
}
