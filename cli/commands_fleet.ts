/**
 * The command table, part five: `spot executor …`, this machine in the fleet (docs/fleet.md). `join` runs until
 * it is signalled: SIGTERM drains (no new work; what runs finishes, then it exits 0), SIGINT or SIGHUP gives
 * every task back at once. `ls` prints a table on a terminal, the one JSON object otherwise.
 */
import { lazy } from "../base/lazy.ts";
import { SpotError } from "../errors.ts";
import { writeErr } from "./output.ts";
import { type CommandSpec, maybeText } from "./spec.ts";

type Fleet = typeof import("../fleet/mod.ts");
const fleet = () => lazy<Fleet>("../fleet/mod.ts", import.meta.url);

function positive(what: string, max: number) {
  return (value: string): number => {
    const n = Number(value);
    if (Number.isInteger(n) && n >= 1 && n <= max) return n;
    throw new SpotError(
      "CLI_USAGE",
      `Cannot read "${value}" as ${what}: expected a whole number, 1 to ${max}`,
    );
  };
}

/** SIGTERM asks for a drain; SIGINT and SIGHUP (or a second SIGTERM) for a stop. */
function executorSignals() {
  const drain = new AbortController();
  const stop = new AbortController();
  const handlers: [Deno.Signal, () => void][] = [
    ["SIGTERM", () => (drain.signal.aborted ? stop.abort() : drain.abort())],
    ["SIGINT", () => (drain.abort(), stop.abort())],
    ["SIGHUP", () => (drain.abort(), stop.abort())],
  ];
  for (const [sig, fn] of handlers) Deno.addSignalListener(sig, fn);
  const close = () => {
    for (const [sig, fn] of handlers) Deno.removeSignalListener(sig, fn);
  };
  return { drain: drain.signal, stop: stop.signal, close };
}

const EXECUTOR_COMMANDS: CommandSpec[] = [
  {
    name: "join",
    help: "Join the queue as an executor and run the work that fits here until signalled",
    options: [
      { flags: "--name <name>", help: "how the fleet knows this executor (default: the host name)" },
      {
        flags: "--capacity <n>",
        help: "tasks at once (default: maxConcurrentRuns)",
        parse: positive("a capacity", 64),
      },
      {
        flags: "--profiles <list>",
        help: "serve only these profiles, comma-separated (default: every one installed)",
      },
      {
        flags: "--drain-seconds <n>",
        help: "on SIGTERM, how long running tasks may finish before they are given back (default 600)",
        parse: positive("seconds", 86_400),
      },
    ],
    run: (o, cli) =>
      cli.verb("executor join", o, async (ctx) => {
        const signals = executorSignals();
        try {
          return await (await fleet()).runExecutor({ ...ctx, progress: (line) => writeErr(line + "\n") }, {
            name: maybeText(o, "name"),
            capacity: typeof o.capacity === "number" ? o.capacity : undefined,
            profiles: maybeText(o, "profiles")?.split(",").map((p) => p.trim()).filter(Boolean),
            drainSeconds: typeof o.drainSeconds === "number" ? o.drainSeconds : undefined,
            drain: signals.drain,
            stop: signals.stop,
            onOutcome: (taskId, outcome) => writeErr(`task ${taskId}: ${JSON.stringify(outcome)}\n`),
          });
        } finally {
          signals.close();
        }
      }),
  },
  {
    name: "ls",
    help: "The executors on the queue: capacity, load, last heartbeat, profiles",
    options: [{ flags: "--json", help: "one JSON object instead of the table" }],
    run: async (o, cli) => {
      const f = await fleet();
      if (o.json === true) return await cli.verb("executor ls", o, (ctx) => f.listExecutors(ctx));
      await cli.humanOrJson("executor ls", o, (ctx) => f.listExecutors(ctx), (r) => f.renderExecutors(r));
    },
  },
];

export const EXECUTOR_COMMAND: CommandSpec = {
  name: "executor",
  help: "This machine in the fleet (docs/fleet.md): join, ls",
  commands: EXECUTOR_COMMANDS,
};
