/** The verbs of the closed loop, doctor to recover. Each imports its verb's module only when it runs. */
import { lazy } from "../base/lazy.ts";
import { doc, flag, number, text } from "./field.ts";
import {
  codes,
  json,
  model,
  parseBool,
  profile,
  ROUTE_ERRORS,
  RUN_ERRORS,
  runId,
  sandbox,
  TURN_ERRORS,
} from "./common.ts";
import { docFile } from "./inputs.ts";
import { FLEET_RUN_ERRORS, on, runOnFleet } from "./fleet.ts";
import { verb } from "./verb.ts";

const verbs = {
  doctor: () => lazy<typeof import("../doctor/doctor.ts")>("../doctor/doctor.ts", import.meta.url),
  prepare: () => lazy<typeof import("../verbs/prepare.ts")>("../verbs/prepare.ts", import.meta.url),
  run: () => lazy<typeof import("../verbs/run.ts")>("../verbs/run.ts", import.meta.url),
  start: () => lazy<typeof import("../agents/start.ts")>("../agents/start.ts", import.meta.url),
  registry: () => lazy<typeof import("../agents/registry.ts")>("../agents/registry.ts", import.meta.url),
  verify: () => lazy<typeof import("../verbs/verify.ts")>("../verbs/verify.ts", import.meta.url),
  review: () => lazy<typeof import("../verbs/self_review.ts")>("../verbs/self_review.ts", import.meta.url),
  revise: () => lazy<typeof import("../verbs/revise.ts")>("../verbs/revise.ts", import.meta.url),
  approve: () => lazy<typeof import("../verbs/approve.ts")>("../verbs/approve.ts", import.meta.url),
  integrate: () => lazy<typeof import("../verbs/integrate.ts")>("../verbs/integrate.ts", import.meta.url),
  report: () => lazy<typeof import("../verbs/report.ts")>("../verbs/report.ts", import.meta.url),
  cleanup: () => lazy<typeof import("../verbs/cleanup.ts")>("../verbs/cleanup.ts", import.meta.url),
  recover: () => lazy<typeof import("../verbs/recover.ts")>("../verbs/recover.ts", import.meta.url),
};

const example = (verb: string, rest = "") => `spot ${verb} --id run-20261201-101500-a1b2c3${rest}`;
const task = doc("task", "the task contract (schemas/task-contract.schema.json)", { required: true });
const review = (verdict: string) =>
  doc("review", `the review, verdict ${verdict} (schemas/review-result.schema.json)`, { required: true });
const cliOnly = ["cli"] as const;

export const LOOP_VERBS = [
  verb({
    name: "doctor",
    summary: "Check that a task can run here with the chosen profile",
    about:
      "Says the profile spot would choose, its key, its network and the sandbox; DOCTOR_FAILED names each blocker and its fix",
    input: {
      task: {
        ...task,
        required: false,
        help: "the task contract to route and check (default: a small low-risk one)",
      },
      profile: text("worker profile", { cli: "--profile <name>" }),
      model: { ...model, help: "model (for the replay worker: the episode file)" },
      probe: flag("also ask the CLI for its model list (never sends a model request)"),
      sandbox: { ...sandbox, help: "judge for this sandbox (auto, bwrap, none), as prepare would" },
      json,
    },
    errors: [...ROUTE_ERRORS, ...codes("DOCTOR_FAILED CONTRACT_INVALID NOT_A_REPOSITORY REPO_NOT_FOUND")],
    annotations: { readOnly: true, idempotent: true },
    cwd: true,
    human: true,
    looks: true,
    examples: ["spot doctor --task task.json --sandbox auto"],
    run: async (ctx, i, io) =>
      (await verbs.doctor()).doctor(ctx, { ...i, task: docFile(ctx, io, "task", i.task) }),
  }),
  verb({
    name: "prepare",
    summary: "Check a contract, choose a worker and build its worktree",
    about:
      "A bad contract is CONTRACT_INVALID with each problem as file:line:col; the run is then `prepared`",
    output: { PrepareResult: "verbs/prepare.ts" },
    input: {
      task,
      profile,
      model,
      usageStart: text("parent usage snapshot file taken before planning (spot parent-meter)", {
        complete: "file",
      }),
      codexStart: text("legacy name of --usage-start", { cli: "--codex-start <file>", faces: cliOnly }),
      selectWorker: flag("true: pick the worker interactively, even under a parent agent", {
        cli: "--select-worker <bool>",
        parse: parseBool,
        faces: cliOnly,
      }),
      selectModel: flag("true: pick only the model of the routed profile interactively", {
        cli: "--select-model <bool>",
        parse: parseBool,
        faces: cliOnly,
      }),
      sandbox,
    },
    errors: [
      ...ROUTE_ERRORS,
      ...codes(
        "CONTRACT_INVALID EPISODE_INVALID PROVIDER_UNREACHABLE HIGH_RISK_BLOCKED BASE_REVISION_MISMATCH",
      ),
      ...codes(
        "NOT_A_REPOSITORY RUN_EXISTS CONCURRENCY_LIMIT SANDBOX_UNAVAILABLE SETUP_FAILED SETUP_CHANGED_TREE",
      ),
      ...codes("USAGE_SNAPSHOT_INVALID GIT_FAILED REPO_NOT_FOUND CHECK_NOT_FOUND SYMLINK_ESCAPE"),
    ],
    cwd: true,
    examples: ["spot prepare --task task.json --usage-start usage-start.json"],
    run: async (ctx, i, io) =>
      (await verbs.prepare()).prepare(ctx, {
        ...i,
        taskFile: docFile(ctx, io, "task", i.task),
        usageStart: i.usageStart ?? i.codexStart,
        // The picker reads a terminal; over MCP stdin is the protocol, so it is never offered.
        interactive: io.face === "mcp" ? false : undefined,
      }),
  }),
  verb({
    name: "run",
    summary: "Run the worker's implementation turn",
    about:
      "Over MCP it returns at once by default: the turn runs as a named agent; follow it with spot_agent_watch " +
      "or spot_agent_poll, then spot_verify. detach: false blocks until the turn ends, with progress notifications. " +
      "on: fleet sends it to an executor and needs detach: false",
    output: { RunResult: "verbs/run.ts", FleetRunResult: "fleet/remote_run.ts" },
    input: {
      runId,
      detach: flag("return at once; the turn runs as a named agent (spot agent poll|watch|stop)", {
        mcpDefault: true,
        faces: ["cli", "mcp"],
      }),
      name: text("with detach: the agent's name (default: the run id)", { faces: ["cli", "mcp"] }),
      on,
    },
    errors: [
      ...RUN_ERRORS,
      ...TURN_ERRORS,
      ...codes("PROFILE_NOT_FOUND STEP_FAILED AGENT_RUNNING AGENT_NAME_INVALID"),
      ...FLEET_RUN_ERRORS,
    ],
    annotations: { long: true },
    examples: [example("run"), example("run", " --detach --name fix-add"), example("run", " --on fleet")],
    run: async (ctx, i) => {
      if (i.on === "fleet") return await runOnFleet(ctx, i);
      if (i.detach !== true) return await (await verbs.run()).runWorker(ctx, i.runId);
      const name = i.name ?? (await verbs.registry()).agentNameFor(i.runId);
      return await (await verbs.start()).startAgent(ctx, name, { runId: i.runId });
    },
  }),
  verb({
    name: "verify",
    summary: "Scan the diff and run the contract's checks",
    about: "In a pristine tree; returns passed, status, reviewTier and diffSha256 (what a review binds to)",
    output: { VerifyResult: "verbs/verify.ts" },
    input: { runId },
    errors: [
      ...RUN_ERRORS,
      ...codes(
        "SECURITY_BLOCKED LOCKED_PATH_CHANGED VERIFICATION_SCRIPT_CHANGED VERIFICATION_OUTPUT_TRUNCATED",
      ),
      ...codes("VERIFICATION_INTERRUPTED SOURCE_CHANGED SANDBOX_UNAVAILABLE NO_CHANGES"),
    ],
    annotations: { long: true },
    examples: [example("verify")],
    run: async (ctx, i) => (await verbs.verify()).verifyRun(ctx, i.runId),
  }),
  verb({
    name: "self-review",
    summary: "Have the worker pre-digest its diff for review",
    about: "Optional and read-only; never blocks. The result names the review tier and the hunks to read",
    output: { SelfReviewResult: "verbs/self_review.ts" },
    input: { runId },
    errors: [...RUN_ERRORS, ...TURN_ERRORS],
    annotations: { long: true },
    examples: [example("self-review")],
    run: async (ctx, i) => (await verbs.review()).selfReviewRun(ctx, i.runId),
  }),
  verb({
    name: "revise",
    summary: "Send review findings back to the worker",
    about: "Another worker turn with the findings, at most maxRevisionRounds times; then verify again",
    output: { ReviseResult: "verbs/revise.ts" },
    input: { runId, review: review("revise") },
    errors: [
      ...RUN_ERRORS,
      ...TURN_ERRORS,
      ...codes("REVIEW_INVALID REVISION_LIMIT REVISION_NO_CHANGE DIFF_CHANGED"),
    ],
    annotations: { long: true },
    cwd: true,
    examples: [example("revise", " --review review.json")],
    run: async (ctx, i, io) =>
      (await verbs.revise()).reviseRun(ctx, i.runId, docFile(ctx, io, "review", i.review)),
  }),
  verb({
    name: "approve",
    summary: "Approve the verified diff and commit it on the worker branch",
    about: "The review must carry the verified diffSha256; every gate runs again and a moved diff is refused",
    output: { ApproveResult: "verbs/approve.ts" },
    input: {
      runId,
      review: review("approve"),
      message: text("commit subject (one line, at most 200 characters)", {
        required: true,
        cli: "--message <text>",
      }),
    },
    errors: [
      ...RUN_ERRORS,
      ...codes("REVIEW_INVALID REVIEW_GATE DIFF_CHANGED SECURITY_BLOCKED LOCKED_PATH_CHANGED SOURCE_CHANGED"),
    ],
    cwd: true,
    examples: [example("approve", ' --review review.json --message "Fix add() to return the sum"')],
    run: async (ctx, i, io) =>
      (await verbs.approve()).approveRun(ctx, i.runId, docFile(ctx, io, "review", i.review), i.message),
  }),
  verb({
    name: "integrate",
    summary:
      "Land the approved commit on the clean source branch (never pushes), checked again unless it is as verified",
    about:
      "A moved or dirty source, or checks that fail, land nothing and leave the work on the worker branch",
    output: { IntegrateResult: "verbs/integrate.ts" },
    input: { runId },
    errors: [
      ...RUN_ERRORS,
      ...codes("INTEGRATION_BLOCKED SOURCE_CHANGED POST_INTEGRATE_VERIFY_FAILED LANDING_BUSY"),
    ],
    annotations: { long: true },
    examples: [example("integrate")],
    run: async (ctx, i) => (await verbs.integrate()).integrateRun(ctx, i.runId),
  }),
  verb({
    name: "report",
    summary: "Write metrics.json and report.md",
    about:
      "The headline is the parent tokens the delegation avoided; format parent gives the user's final response",
    output: { ReportResult: "verbs/report.ts" },
    input: {
      runId,
      chatgptImageGenerations: number("images made in ChatGPT for the same task", {
        int: true,
        min: 0,
        parse: (v) => Number.parseInt(v, 10),
      }),
      format: text("json (default), or parent: the final response a parent gives its user", {
        values: ["json", "parent"],
      }),
    },
    errors: RUN_ERRORS,
    annotations: { idempotent: true },
    examples: [example("report", " --format parent")],
    run: async (ctx, i) => (await verbs.report()).reportRun(ctx, i.runId, i),
    text: (r, i) => i.format === "parent" ? r.parentText ?? "" : undefined,
  }),
  verb({
    name: "cleanup",
    summary: "Remove a finished run's worktree (the run directory stays)",
    output: { CleanupResult: "verbs/cleanup.ts" },
    input: { runId },
    errors: [...RUN_ERRORS, ...codes("CLEANUP_REFUSED")],
    annotations: { destructive: true, idempotent: true },
    examples: [example("cleanup")],
    run: async (ctx, i) => (await verbs.cleanup()).cleanupRun(ctx, i.runId),
  }),
  verb({
    name: "recover",
    summary: "Resume an interrupted run in the right phase",
    about: "Ends what an interrupted command left running and prints nextCommand",
    output: { RecoverResult: "verbs/recover.ts" },
    input: { runId, json },
    human: true,
    errors: RUN_ERRORS,
    annotations: { idempotent: true },
    examples: [example("recover")],
    run: async (ctx, i) => (await verbs.recover()).recoverRun(ctx, i.runId),
  }),
] as const;
