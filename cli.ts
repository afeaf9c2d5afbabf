#!/usr/bin/env -S deno run --allow-all
/**
 * `spot` (alias `pi-worker`): delegate a bounded coding task to a cheap worker
 * CLI and get back work you can trust. Every command prints one JSON object on
 * stdout; errors go to stderr as JSON with a stable code and exit code.
 *
 * The orchestrator runs with --allow-all: it starts arbitrary programs anyway (git, bwrap, the steps), and
 * Deno 2.9 lets only --allow-all read /proc, which the reaper and the sandbox record need. Everything that
 * runs repo or worker code runs in a step with scoped flags (sandbox/deno_flags.ts), never -A.
 */
import { Command, CommanderError } from "@commander-js/extra-typings";
import { EXIT, SpotError } from "./errors.ts";
import { Invocation } from "./cli/invoke.ts";
import { printError, writeErr } from "./cli/output.ts";
import { parseBool, positiveInt } from "./cli/parse.ts";
import { VERSION } from "./cli/version.ts";
import { agentCommands } from "./cli/agent.ts";
import { diffRun } from "./verbs/diff.ts";
import { parentMeter } from "./verbs/parent_meter.ts";
import {
  approveRun,
  cleanupRun,
  doctor,
  inspectRun,
  integrateRun,
  listRuns,
  prepare,
  recoverRun,
  reportRun,
  reviseRun,
  runWorker,
  selfReviewRun,
  verifyRun,
} from "./verbs/mod.ts";

const cli = new Invocation();
const verb = cli.verb.bind(cli);

const program = new Command()
  .name("spot")
  .description("Delegate bounded coding tasks to cheap worker CLIs, verified and sandboxed")
  .version(VERSION)
  .exitOverride()
  .showSuggestionAfterError();

program.command("doctor").description("Check that a task can run here with the chosen profile")
  .option("--task <file>", "task contract to validate")
  .option("--profile <name>", "worker profile")
  .option("--model <model>", "model (for replay: the episode file)")
  .option("--probe", "also ask the CLI for its model list (never sends a model request)")
  .option("--sandbox <mode>", "judge for this sandbox (auto, bwrap, none), as prepare would")
  .action((o) => verb("doctor", o, (ctx) => doctor(ctx, o)));

program.command("prepare").description("Check a contract, choose a worker and build its worktree")
  .requiredOption("--task <file>", "task contract (JSON)")
  .option("--profile <name>", "worker profile (overrides routing)")
  .option("--model <model>", "model override (for replay: the episode file)")
  .option("--usage-start <file>", "parent usage snapshot taken before planning")
  .option("--codex-start <file>", "legacy name of --usage-start")
  .option(
    "--select-worker <bool>",
    "true: pick the worker interactively, even under a parent agent",
    parseBool,
  )
  .option("--select-model <bool>", "true: pick only the model of the routed profile interactively", parseBool)
  .option("--sandbox <mode>", "OS sandbox: auto (bwrap when usable, else refuse), bwrap, or none (opt out)")
  .action((o) =>
    verb(
      "prepare",
      o,
      (ctx) =>
        prepare(ctx, {
          taskFile: o.task,
          profile: o.profile,
          model: o.model,
          usageStart: o.usageStart ?? o.codexStart,
          selectWorker: o.selectWorker,
          selectModel: o.selectModel,
          sandbox: o.sandbox,
        }),
    )
  );

const id = (c: Command) => c.requiredOption("--id <runId>", "run id");

id(program.command("run").description("Run the worker's implementation turn"))
  .option("--detach", "return at once; the turn runs as a named agent (spot agent poll|watch|stop)")
  .option("--name <name>", "with --detach: the agent's name (default: the run id)")
  .action(async (o) => {
    if (!o.detach) return await verb("run", o, (ctx) => runWorker(ctx, o.id), { interruptible: true });
    const { startAgent, agentNameFor } = await import("./agents/mod.ts");
    await verb("run", o, (ctx) => startAgent(ctx, o.name ?? agentNameFor(o.id), { runId: o.id }));
  });
id(program.command("verify").description("Scan the diff and run the contract's checks"))
  .action((o) => verb("verify", o, (ctx) => verifyRun(ctx, o.id), { interruptible: true }));
id(program.command("self-review").description("Have the worker pre-digest its diff for review"))
  .action((o) => verb("self-review", o, (ctx) => selfReviewRun(ctx, o.id), { interruptible: true }));
id(program.command("revise").description("Send review findings back to the worker"))
  .requiredOption("--review <file>", "review result with verdict revise")
  .action((o) => verb("revise", o, (ctx) => reviseRun(ctx, o.id, o.review), { interruptible: true }));
id(program.command("approve").description("Approve the verified diff and commit it on the worker branch"))
  .requiredOption("--review <file>", "review result with verdict approve")
  .requiredOption("--message <text>", "commit subject (one line, at most 200 characters)")
  .action((o) => verb("approve", o, (ctx) => approveRun(ctx, o.id, o.review, o.message)));
id(
  program.command("integrate").description(
    "Cherry-pick the approved commit onto the clean source branch (never pushes)",
  ),
)
  .action((o) => verb("integrate", o, (ctx) => integrateRun(ctx, o.id), { interruptible: true }));
id(program.command("report").description("Write metrics.json and report.md"))
  .option(
    "--chatgpt-image-generations <n>",
    "images made in ChatGPT for the same task",
    (v) => Number.parseInt(v, 10),
  )
  .option("--format <format>", "json (default), or parent: the final response a parent gives its user")
  .action((o) =>
    o.format === "parent"
      ? cli.text("report", o, async (ctx) => (await reportRun(ctx, o.id, o)).parentText ?? "")
      : verb("report", o, (ctx) => reportRun(ctx, o.id, o))
  );
id(program.command("cleanup").description("Remove a finished run's worktree (the run directory stays)"))
  .action((o) => verb("cleanup", o, (ctx) => cleanupRun(ctx, o.id)));
id(program.command("recover").description("Resume an interrupted run in the right phase"))
  .action((o) => verb("recover", o, (ctx) => recoverRun(ctx, o.id)));
id(program.command("inspect").description("Show a run's state, verification, review and usage"))
  .action((o) => verb("inspect", o, (ctx) => inspectRun(ctx, o.id)));

program.command("list").description("List runs")
  .option("--status <status>", "only runs in this status")
  .option("--caller <caller>", "only runs from this caller")
  .option("--running", "only active runs")
  .option("--limit <n>", "show the newest N runs (default 200)", positiveInt)
  .option("--offset <n>", "skip the N newest matching runs first", positiveInt)
  .option("--all", "show every run, however many")
  .action((o) => verb("list", o, (ctx) => listRuns(ctx, o)));

program.command("parent-meter").alias("codex-meter")
  .description("Snapshot the parent agent's session usage (run it before planning; pass the file to prepare)")
  .option("--output <file>", "write the snapshot here (for prepare --usage-start)")
  .action((o) => verb("parent-meter", o, (ctx) => parentMeter(ctx, o)));

// @commands:usage (parent-meter; report options)
program.command("serve").description("Serve the live dashboard (loopback only unless --host says otherwise)")
  .option("--port <port>", "port to listen on", "7317")
  .option("--host <address>", "address to bind", "127.0.0.1")
  .option("--no-open", "do not open a browser")
  .action((o) =>
    verb("serve", o, async (ctx) => {
      const { parsePort, serveUntilStopped } = await import("./serve/mod.ts");
      const log = (line: string) => writeErr(`[spot serve] ${line}\n`);
      return await serveUntilStopped(ctx, { port: parsePort(o.port), host: o.host, open: o.open }, log);
    }, { interruptible: true })
  );
program.command("dashboard").description("Write the dashboard as one self-contained HTML file")
  .option("--output <file>", "where to write it (default: dashboard.html in the state directory)")
  .action((o) =>
    verb("dashboard", o, async (ctx) => (await import("./serve/mod.ts")).dashboardSnapshot(ctx, o.output))
  );
program.command("monitor").description("Follow every active run's worker.log in tmux panes")
  .option("--list", "only list the runs it would follow")
  .option("--kill", "close the monitor's tmux session")
  .action((o) => verb("monitor", o, async (ctx) => (await import("./serve/mod.ts")).monitorRuns(ctx, o)));
// @commands:serve (serve, dashboard, monitor)
const configCommand = program.command("config").description(
  "Where the config is, what it holds, whether it is valid",
);
configCommand.command("path").description("Print the config file's path")
  .action(async () => cli.config("path", (await import("./verbs/config.ts")).configPath));
configCommand.command("show").description("Print the effective config, defaults filled in")
  .action(async () => cli.config("show", (await import("./verbs/config.ts")).configShow));
configCommand.command("validate").description("Check the config file; problems as file:line:col, exit 2")
  .action(async () => cli.config("validate", (await import("./verbs/config.ts")).configValidate));
configCommand.command("migrate").description(
  "Rewrite the config with spot's names for the original pi-worker's keys (a backup is kept beside it)",
)
  .action(async () => cli.config("migrate", (await import("./verbs/config.ts")).configMigrate));

program.command("detect").description("Probe the worker CLIs installed here (cached for 10 minutes)")
  .option("--refresh", "ignore the cache and probe again")
  .action(async (o) => {
    const { detectWorkers } = await import("./verbs/detect.ts");
    const { renderRegistry } = await import("./registry/render.ts");
    await cli.humanOrJson("detect", o, (ctx) => detectWorkers(ctx, o), (r) => renderRegistry(r.registry, r));
  });
// @commands:config (config, detect, picker flags)
id(
  program.command("diff").description(
    "Show the verified diff, or with --hunks only what the review guide asks to read",
  ),
)
  .option("--hunks", "only the hunks of the review guide")
  .action((o) => verb("diff", o, (ctx) => diffRun(ctx, o.id, { hunks: o.hunks })));
// @commands:gates (diff)
program.command("sandbox").description("Show which OS sandbox a run gets here and why (exit 4 if none)")
  .option("--sandbox <mode>", "check this choice instead of the config's: auto, bwrap or none")
  .action(async (o) => {
    const { describeSandbox } = await import("./verbs/sandbox.ts");
    await verb("sandbox", o, (ctx) => describeSandbox(ctx, o));
  });
// @commands:sandbox (sandbox flags)
agentCommands(
  program.command("agent").description("Named background agents: start, poll, peek, ls, stop"),
  cli,
);
// @commands:agents (agent subcommands in cli/agent.ts)

async function main(argv: string[]): Promise<number> {
  try {
    await program.parseAsync(argv, { from: "user" });
  } catch (error) {
    if (error instanceof CommanderError) {
      if (
        error.code === "commander.helpDisplayed" || error.code === "commander.version" || error.exitCode === 0
      ) {
        return EXIT.ok;
      }
      return printError(new SpotError("CLI_USAGE", error.message.replace(/^error: /, "")));
    }
    return printError(error);
  }
  return cli.exitCode;
}

if (import.meta.main) Deno.exit(await main(Deno.args));
