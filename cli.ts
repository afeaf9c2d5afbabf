#!/usr/bin/env -S deno run --allow-all
/**
 * `spot` (alias `pi-worker`): delegate a bounded coding task to a cheap worker
 * CLI and get back work you can trust. Every command prints one JSON object on
 * stdout (a table or a summary for a person at a terminal); a failure prints
 * exactly one JSON object on stderr, with a stable code and exit code.
 *
 * Each verb is declared once in the verb table (table/); a well-formed call is read by the fast parser
 * against its own table module and loads only its verb's modules, anything else goes to commander with the
 * whole table (docs/performance.md).
 *
 * The orchestrator runs with --allow-all: it starts arbitrary programs anyway (git, bwrap, the steps), and
 * Deno 2.9 lets only --allow-all read /proc, which the reaper and the sandbox record need. Everything that
 * runs repo or worker code runs in a step with scoped flags (sandbox/deno_flags.ts), never -A.
 */
import { parseFast } from "./cli/argv.ts";
import { Invocation } from "./cli/invoke.ts";
import { humanErrors, printError, writeErr, writeOut } from "./cli/output.ts";
import { enableTimings, recordTiming, timingsEnabled, timingsTable } from "./base/timings.ts";
import { commandsFor } from "./cli/fast_table.ts";
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
    if (argv.length === 1 && (argv[0] === "--version" || argv[0] === "-V")) {
      // What commander prints, without loading it and the whole table for one line.
      const { VERSION } = await lazy<typeof import("./cli/version.ts")>("./cli/version.ts", import.meta.url);
      writeOut(`${VERSION}\n`);
      return 0;
    }
    const fast = parseFast(await commandsFor(argv[0]), argv);
    if (fast) await fast.command.run!(fast.options, cli);
    else {
      const program = await lazy<typeof import("./cli/program.ts")>("./cli/program.ts", import.meta.url);
      const { COMMANDS } = await lazy<typeof import("./cli/table.ts")>("./cli/table.ts", import.meta.url);
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
