/**
 * The command table, part one: the verbs of the closed loop. Each `run` imports its verb's module when
 * called, so a command loads only what it uses (docs/performance.md).
 */
import type { SpotContext } from "../store/context.ts";
import { parseBool } from "./parse.ts";
import { type CommandSpec, maybeText, RUN_ID_OPTION, text } from "./spec.ts";
import { lazy } from "../base/lazy.ts";

/** The human views of these commands, each loaded only when a terminal shows it (cli/render/). */
const views = {
  doctor: async () =>
    (await lazy<typeof import("./render/doctor.ts")>("./render/doctor.ts", import.meta.url)).renderDoctor,
  recover: async () =>
    (await lazy<typeof import("./render/recover.ts")>("./render/recover.ts", import.meta.url)).renderRecover,
  discard: async () =>
    (await lazy<typeof import("./render/discard.ts")>("./render/discard.ts", import.meta.url)).renderDiscard,
};

/** A `--id` command whose verb takes the run id alone; `interruptible` ones stop cleanly on a signal. */
function byId(
  name: string,
  help: string,
  call: (id: string) => (ctx: SpotContext) => Promise<object>,
  interruptible = false,
): CommandSpec {
  return {
    name,
    help,
    options: [RUN_ID_OPTION],
    run: (o, cli) => cli.verb(name, o, call(text(o, "id")), { interruptible }),
  };
}

export const LOOP_COMMANDS: CommandSpec[] = [
  {
    name: "doctor",
    help: "Check that a task can run here with the chosen profile",
    view: views.doctor,
    options: [
      { flags: "--task <file>", help: "task contract to validate" },
      { flags: "--profile <name>", help: "worker profile" },
      { flags: "--model <model>", help: "model (for replay: the episode file)" },
      { flags: "--probe", help: "also ask the CLI for its model list (never sends a model request)" },
      { flags: "--sandbox <mode>", help: "judge for this sandbox (auto, bwrap, none), as prepare would" },
    ],
    run: (o, cli) =>
      cli.verb(
        "doctor",
        o,
        async (ctx) =>
          (await lazy<typeof import("../doctor/doctor.ts")>("../doctor/doctor.ts", import.meta.url)).doctor(
            ctx,
            o as never,
          ),
        { readOnly: true },
      ),
  },
  {
    name: "prepare",
    help: "Check a contract, choose a worker and build its worktree",
    options: [
      { flags: "--task <file>", help: "task contract (JSON)", required: true },
      { flags: "--profile <name>", help: "worker profile (overrides routing)" },
      { flags: "--model <model>", help: "model override (for replay: the episode file)" },
      { flags: "--usage-start <file>", help: "parent usage snapshot taken before planning" },
      { flags: "--codex-start <file>", help: "legacy name of --usage-start" },
      {
        flags: "--select-worker <bool>",
        help: "true: pick the worker interactively, even under a parent agent",
        parse: parseBool,
      },
      {
        flags: "--select-model <bool>",
        help: "true: pick only the model of the routed profile interactively",
        parse: parseBool,
      },
      {
        flags: "--sandbox <mode>",
        help: "OS sandbox: auto (bwrap when usable, else refuse), bwrap, or none (opt out)",
      },
    ],
    run: (o, cli) =>
      cli.verb(
        "prepare",
        o,
        async (ctx) =>
          (await lazy<typeof import("../verbs/prepare.ts")>("../verbs/prepare.ts", import.meta.url)).prepare(
            ctx,
            {
              taskFile: text(o, "task"),
              profile: maybeText(o, "profile"),
              model: maybeText(o, "model"),
              usageStart: maybeText(o, "usageStart") ?? maybeText(o, "codexStart"),
              selectWorker: o.selectWorker as boolean | undefined,
              selectModel: o.selectModel as boolean | undefined,
              sandbox: maybeText(o, "sandbox"),
            },
          ),
      ),
  },
  {
    name: "run",
    help: "Run the worker's implementation turn",
    options: [
      RUN_ID_OPTION,
      {
        flags: "--detach",
        help: "return at once; the turn runs as a named agent (spot agent poll|watch|stop)",
      },
      { flags: "--name <name>", help: "with --detach: the agent's name (default: the run id)" },
    ],
    run: async (o, cli) => {
      const id = text(o, "id");
      if (o.detach !== true) {
        return await cli.verb(
          "run",
          o,
          async (ctx) =>
            (await lazy<typeof import("../verbs/run.ts")>("../verbs/run.ts", import.meta.url)).runWorker(
              ctx,
              id,
            ),
          {
            interruptible: true,
          },
        );
      }
      await cli.verb("run", o, async (ctx) => {
        const agents = await lazy<typeof import("../agents/mod.ts")>("../agents/mod.ts", import.meta.url);
        return await agents.startAgent(ctx, maybeText(o, "name") ?? agents.agentNameFor(id), { runId: id });
      });
    },
  },
  byId(
    "verify",
    "Scan the diff and run the contract's checks",
    (id) => async (ctx) =>
      (await lazy<typeof import("../verbs/verify.ts")>("../verbs/verify.ts", import.meta.url)).verifyRun(
        ctx,
        id,
      ),
    true,
  ),
  byId(
    "self-review",
    "Have the worker pre-digest its diff for review",
    (id) => async (ctx) =>
      (await lazy<typeof import("../verbs/self_review.ts")>("../verbs/self_review.ts", import.meta.url))
        .selfReviewRun(ctx, id),
    true,
  ),
  {
    name: "revise",
    help: "Send review findings back to the worker",
    options: [RUN_ID_OPTION, {
      flags: "--review <file>",
      help: "review result with verdict revise",
      required: true,
    }],
    run: (o, cli) =>
      cli.verb(
        "revise",
        o,
        async (ctx) =>
          (await lazy<typeof import("../verbs/revise.ts")>("../verbs/revise.ts", import.meta.url)).reviseRun(
            ctx,
            text(o, "id"),
            text(o, "review"),
          ),
        { interruptible: true },
      ),
  },
  {
    name: "approve",
    help: "Approve the verified diff and commit it on the worker branch",
    options: [
      RUN_ID_OPTION,
      { flags: "--review <file>", help: "review result with verdict approve", required: true },
      {
        flags: "--message <text>",
        help: "commit subject (one line, at most 200 characters)",
        required: true,
      },
    ],
    run: (o, cli) =>
      cli.verb(
        "approve",
        o,
        async (ctx) =>
          (await lazy<typeof import("../verbs/approve.ts")>("../verbs/approve.ts", import.meta.url))
            .approveRun(
              ctx,
              text(o, "id"),
              text(o, "review"),
              text(o, "message"),
            ),
      ),
  },
  byId(
    "integrate",
    "Cherry-pick the approved commit onto the clean source branch (never pushes)",
    (id) => async (ctx) =>
      (await lazy<typeof import("../verbs/integrate.ts")>("../verbs/integrate.ts", import.meta.url))
        .integrateRun(ctx, id),
    true,
  ),
  {
    name: "report",
    help: "Write metrics.json and report.md",
    options: [
      RUN_ID_OPTION,
      {
        flags: "--chatgpt-image-generations <n>",
        help: "images made in ChatGPT for the same task",
        parse: (v) => Number.parseInt(v, 10),
      },
      {
        flags: "--format <format>",
        help: "json (default), or parent: the final response a parent gives its user",
      },
    ],
    run: async (o, cli) => {
      const report = async (ctx: SpotContext) =>
        await (await lazy<typeof import("../verbs/report.ts")>("../verbs/report.ts", import.meta.url))
          .reportRun(ctx, text(o, "id"), o as never);
      if (o.format === "parent") {
        await cli.text("report", o, async (ctx) => (await report(ctx)).parentText ?? "");
      } else await cli.verb("report", o, report);
    },
  },
  byId(
    "cleanup",
    "Remove a finished run's worktree (the run directory stays)",
    (id) => async (ctx) =>
      (await lazy<typeof import("../verbs/cleanup.ts")>("../verbs/cleanup.ts", import.meta.url)).cleanupRun(
        ctx,
        id,
      ),
  ),
  {
    view: views.discard,
    ...byId(
      "discard",
      "Drop an unfinished run: its diff saved to diff.patch, worktree and branch removed, its slot freed",
      (id) => async (ctx) =>
        (await lazy<typeof import("../lifecycle/discard.ts")>("../lifecycle/discard.ts", import.meta.url))
          .discardRun(
            ctx,
            id,
          ),
    ),
  },
  {
    view: views.recover,
    ...byId(
      "recover",
      "Resume an interrupted run in the right phase",
      (id) => async (ctx) =>
        (await lazy<typeof import("../verbs/recover.ts")>("../verbs/recover.ts", import.meta.url)).recoverRun(
          ctx,
          id,
        ),
    ),
  },
];
