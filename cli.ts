#!/usr/bin/env -S deno run --allow-read --allow-write --allow-run --allow-env --allow-net=127.0.0.1,localhost
/**
 * `spot` (alias `pi-worker`): delegate a bounded coding task to a cheap worker
 * CLI and get back work you can trust. Every command prints one JSON object on
 * stdout; errors go to stderr as JSON with a stable code and exit code.
 */
import { Command, CommanderError } from "@commander-js/extra-typings";
import { EXIT, isSpotError, SpotError } from "./errors.ts";
import { diffRun } from "./run/diff_verb.ts";
import { createProgressLine } from "./run/progress_line.ts";
import {
  approveRun,
  audited,
  cleanupRun,
  createContext,
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
  type SpotContext,
  verifyRun,
} from "./run/mod.ts";

const VERSION = "0.1.0";
const SIGNAL_EXIT: Record<string, number> = { SIGINT: 130, SIGHUP: 129, SIGTERM: 143 };

let exitCode = 0;
const encoder = new TextEncoder();

function printOk(command: string, result: object): void {
  Deno.stdout.writeSync(encoder.encode(JSON.stringify({ ok: true, command, ...result }) + "\n"));
}

function printError(error: unknown): number {
  const spot = isSpotError(error) ? error : new SpotError(
    "INTERNAL",
    `Unexpected failure: ${error instanceof Error ? error.message : String(error)}`,
    {
      details: { stack: error instanceof Error ? error.stack?.split("\n").slice(0, 6) : undefined },
    },
  );
  Deno.stderr.writeSync(encoder.encode(JSON.stringify({ ok: false, error: spot.toJSON() }) + "\n"));
  return spot.exitCode;
}

/** Runs one verb with context, audit, interruption handling and JSON output. */
async function verb(
  name: string,
  args: Record<string, unknown>,
  fn: (ctx: SpotContext) => Promise<object>,
  options: { interruptible?: boolean } = {},
): Promise<void> {
  const controller = new AbortController();
  let caught: string | null = null;
  const handlers: [Deno.Signal, () => void][] = [];
  if (options.interruptible) {
    for (const sig of ["SIGINT", "SIGTERM", "SIGHUP"] as const) {
      const handler = () => {
        caught ??= sig;
        controller.abort();
      };
      Deno.addSignalListener(sig, handler);
      handlers.push([sig, handler]);
    }
  }
  const progress = options.interruptible && Deno.stderr.isTerminal()
    ? createProgressLine((text) => Deno.stderr.writeSync(encoder.encode(text)))
    : undefined;
  try {
    const ctx = await createContext({ signal: controller.signal, progress: progress?.update });
    const result = await audited(ctx, name, args, () => fn(ctx));
    progress?.stop();
    printOk(name, result);
  } catch (error) {
    progress?.stop();
    exitCode = printError(error);
  } finally {
    for (const [sig, handler] of handlers) Deno.removeSignalListener(sig, handler);
  }
  if (caught) exitCode = SIGNAL_EXIT[caught];
}

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
  .action((o) => verb("doctor", o, (ctx) => doctor(ctx, o)));

program.command("prepare").description("Check a contract, choose a worker and build its worktree")
  .requiredOption("--task <file>", "task contract (JSON)")
  .option("--profile <name>", "worker profile (overrides routing)")
  .option("--model <model>", "model override (for replay: the episode file)")
  .option("--usage-start <file>", "parent usage snapshot taken before planning")
  .option("--codex-start <file>", "legacy name of --usage-start")
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
        }),
    )
  );

const id = (c: Command) => c.requiredOption("--id <runId>", "run id");

id(program.command("run").description("Run the worker's implementation turn"))
  .action((o) => verb("run", o, (ctx) => runWorker(ctx, o.id), { interruptible: true }));
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
  .action((o) => verb("report", o, (ctx) => reportRun(ctx, o.id)));
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
  .action((o) => verb("list", o, (ctx) => listRuns(ctx, o)));

// @commands:usage (parent-meter; report options)
// @commands:serve (serve, dashboard, monitor)
// @commands:config (config, detect, picker flags)
id(
  program.command("diff").description(
    "Show the verified diff, or with --hunks only what the review guide asks to read",
  ),
)
  .option("--hunks", "only the hunks of the review guide")
  .action((o) => verb("diff", o, (ctx) => diffRun(ctx, o.id, { hunks: o.hunks })));
// @commands:gates (diff)
// @commands:sandbox (sandbox flags)

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
  return exitCode;
}

if (import.meta.main) Deno.exit(await main(Deno.args));
