#!/usr/bin/env -S deno run --allow-all
/**
 * `spot` (alias `pi-worker`): delegate a bounded coding task to a cheap worker
 * CLI and get back work you can trust. Every command prints one JSON object on
 * stdout (a table or a summary for a person at a terminal); a failure prints
 * exactly one JSON object on stderr, with a stable code and exit code.
 *
 * The command table is data (cli/commands*.ts); a well-formed call is read by the fast parser and loads
 * only its verb's modules, anything else goes to commander (docs/performance.md).
 *
 * The orchestrator runs with --allow-all: it starts arbitrary programs anyway (git, bwrap, the steps), and
 * Deno 2.9 lets only --allow-all read /proc, which the reaper and the sandbox record need. Everything that
 * runs repo or worker code runs in a step with scoped flags (sandbox/deno_flags.ts), never -A.
 */
import { parseFast } from "./cli/argv.ts";
import { Invocation } from "./cli/invoke.ts";
import { humanErrors, printError, writeErr } from "./cli/output.ts";
import { enableTimings, recordTiming, timingsEnabled, timingsTable } from "./base/timings.ts";
import { COMMANDS } from "./cli/table.ts";
import { exitStyleFromEnv } from "./cli/exit_codes.ts";
import { lazy } from "./base/lazy.ts";

async function main(args: string[]): Promise<number> {
  const argv = args.filter((a) => a !== "--timings");
  if (argv.length !== args.length || Deno.env.get("SPOT_TIMINGS") === "1") enableTimings();
  recordTiming("deno start and module loading", performance.now());
  const cli = new Invocation();
  // An error before any command parsed its options (a usage error) honours `--json` too.
  cli.json = argv.includes("--json");
  try {
    exitStyleFromEnv((n) => Deno.env.get(n));
    const fast = parseFast(COMMANDS, argv);
    if (fast) await fast.command.run!(fast.options, cli);
    else {
      const program = await lazy<typeof import("./cli/program.ts")>("./cli/program.ts", import.meta.url);
      await program.parseWithCommander(COMMANDS, cli, argv);
    }
  } catch (error) {
    return await printError(error, cli.warnings.list, { human: humanErrors(cli.json) });
  } finally {
    if (timingsEnabled()) writeErr(timingsTable(performance.now()));
  }
  return cli.exitCode;
}

if (import.meta.main) Deno.exit(await main(Deno.args));
