/**
 * The CLI's `main` (cli.ts starts it, from spot's JavaScript copy when one matches the checkout:
 * boot/copy.ts). Each verb is declared once in the verb table (table/); a well-formed call is read by the
 * fast parser against its own table module and loads only its verb's modules, anything else goes to
 * commander with the whole table (docs/performance.md).
 */
import { parseFast } from "./argv.ts";
import { Invocation } from "./invoke.ts";
import { humanErrors, printError, writeErr, writeOut } from "./output.ts";
import { enableTimings, recordTiming, timingsEnabled, timingsTable } from "../base/timings.ts";
import { commandsFor } from "./fast_table.ts";
import { exitStyleFromEnv } from "./exit_codes.ts";
import { lazy } from "../base/lazy.ts";

/** What cli.ts's start found (boot/copy_stamps.ts, `CopyStatus`): read by its symbol, boot/ is not imported. */
interface CopyStatus {
  from: "copy" | "sources";
  why?: string;
  checked?: { files: number; ms: number };
  buildMs?: number;
}

/** Where spot ran from, for the timings table; the check and a build as its rows. */
function copyNote(): string | undefined {
  const status = (globalThis as Record<symbol, CopyStatus | undefined>)[Symbol.for("spot.js-copy.status")];
  if (!status) return undefined;
  if (status.checked) {
    recordTiming(`check the JavaScript copy (${status.checked.files} files)`, status.checked.ms);
  }
  if (status.buildMs !== undefined) recordTiming("build the JavaScript copy", status.buildMs);
  return status.from === "copy"
    ? "from the JavaScript copy (.js-copy/)"
    : `from the TypeScript sources: ${status.why ?? "the copy was not used"}`;
}

/** The whole command line: parses `args`, runs the verb, prints its result or error; the exit code. */
export async function main(args: readonly string[]): Promise<number> {
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
      const { VERSION } = await lazy<typeof import("./version.ts")>("./version.ts", import.meta.url);
      writeOut(`${VERSION}\n`);
      return 0;
    }
    const fast = parseFast(await commandsFor(argv[0]), argv);
    if (fast) await fast.command.run!(fast.options, cli);
    else {
      const program = await lazy<typeof import("./program.ts")>("./program.ts", import.meta.url);
      const { COMMANDS } = await lazy<typeof import("./table.ts")>("./table.ts", import.meta.url);
      await program.parseWithCommander(COMMANDS, cli, argv);
    }
  } catch (error) {
    return await printError(error, cli.warnings.list, { human: humanErrors(cli.json) });
  } finally {
    if (timingsEnabled()) writeErr(timingsTable(performance.now(), copyNote()));
  }
  return cli.exitCode;
}
