/**
 * `spot executor …`: this machine in the fleet (docs/fleet.md); and the fleet's part of `run` (`--on fleet`)
 * and of a job's coordinator. `executor join` is a daemon: the CLI's alone, it answers its signals itself
 * (SIGTERM drains, then it exits 0; SIGINT or SIGHUP gives every task back at once). `executor ls` only looks.
 */
import { lazy } from "../base/lazy.ts";
import { SpotError } from "../errors.ts";
import type { SpotContext } from "../store/context.ts";
import { codes, json } from "./common.ts";
import { number, text } from "./field.ts";
import { verb } from "./verb.ts";

const fleet = () => lazy<typeof import("../fleet/mod.ts")>("../fleet/mod.ts", import.meta.url);
const graphs = () => lazy<typeof import("../graphs/mod.ts")>("../graphs/mod.ts", import.meta.url);

/** What any verb that talks to the fleet's queue can meet. */
export const QUEUE_ERRORS = codes("QUEUE_NOT_CONFIGURED QUEUE_UNAVAILABLE");
/** What a run sent to the fleet can end in beyond a local turn's codes: its executor verified it too. */
export const FLEET_RUN_ERRORS = [
  ...QUEUE_ERRORS,
  ...codes("FLEET_UNCLAIMED FLEET_TASK_FAILED FLEET_RESULT_MISMATCH EPISODE_INVALID"),
  ...codes("SECURITY_BLOCKED LOCKED_PATH_CHANGED VERIFICATION_SCRIPT_CHANGED NO_CHANGES"),
];
/** A day: a drain longer than that is a typo, not a plan. */
const MAX_DRAIN_SECONDS = 86_400;
/** More tasks at once than one machine's sandboxes and provider slots hold. */
const MAX_CAPACITY = 64;

function wholeUpTo(what: string, max: number) {
  return (value: string): number => {
    const n = Number(value);
    if (Number.isInteger(n) && n >= 1 && n <= max) return n;
    throw new SpotError(
      "CLI_USAGE",
      `Cannot read "${value}" as ${what}: expected a whole number, 1 to ${max}`,
    );
  };
}

/** `run`'s choice of where the turn runs. */
export const on = text(
  "here (default): this machine runs the turn; fleet: an executor runs the turn, the checks and the self-review " +
    "(docs/fleet.md), and the call returns once the result is taken over here",
  { values: ["here", "fleet"], cli: "--on <where>" },
);

/** `spot run --on fleet`: the run is sent, followed and taken over; it cannot also be detached. */
export async function runOnFleet(ctx: SpotContext, input: { runId: string; detach?: boolean }) {
  if (input.detach === true) {
    throw new SpotError(
      "CLI_USAGE",
      `Cannot detach run "${input.runId}" on the fleet: its executor runs it`,
      {
        details: {
          hint: "leave out --detach (over MCP pass detach: false); the call returns when it is verified",
        },
      },
    );
  }
  return await (await fleet()).runOnFleet(ctx, input.runId);
}

/** A job's coordinator: with the nats queue configured its tasks' turns go to the fleet's executors. */
export async function coordinate(ctx: SpotContext, jobId: string) {
  const place = ctx.config.queue.backend === "nats" ? await (await fleet()).fleetPlacement(ctx) : undefined;
  try {
    return await (await graphs()).coordinateJob(ctx, jobId, { place });
  } finally {
    await place?.close();
  }
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

export const FLEET_VERBS = [
  verb({
    name: "executor join",
    summary: "Join the queue as an executor and run the work that fits here until signalled",
    about:
      "SIGTERM drains (claims nothing new, lets what runs finish, exits 0); SIGINT or SIGHUP gives every " +
      "task back at once",
    input: {
      name: text("how the fleet knows this executor: letters, digits, _ and - (default: the host name)", {
        cli: "--name <name>",
      }),
      capacity: number("tasks at once (default: maxConcurrentRuns)", {
        int: true,
        min: 1,
        max: MAX_CAPACITY,
        parse: wholeUpTo("a capacity", MAX_CAPACITY),
      }),
      profiles: text("serve only these profiles, comma-separated (default: every one installed here)", {
        cli: "--profiles <list>",
      }),
      drainSeconds: number(
        "on SIGTERM, how long running tasks may finish before they are given back (default 600)",
        {
          int: true,
          min: 1,
          max: MAX_DRAIN_SECONDS,
          parse: wholeUpTo("seconds", MAX_DRAIN_SECONDS),
        },
      ),
    },
    errors: [...QUEUE_ERRORS, ...codes("RUN_LOCKED PROFILE_NOT_FOUND DOCTOR_FAILED")],
    annotations: { long: true, daemon: true },
    faces: ["cli"],
    examples: ["spot executor join --name build-3 --capacity 4 --profiles replay,pi-cheap"],
    run: async (ctx, i, io) => {
      const signals = executorSignals();
      try {
        return await (await fleet()).runExecutor({ ...ctx, progress: io.log }, {
          name: i.name,
          capacity: i.capacity,
          profiles: i.profiles?.split(",").map((p) => p.trim()).filter(Boolean),
          drainSeconds: i.drainSeconds,
          drain: signals.drain,
          stop: signals.stop,
          onOutcome: (taskId, outcome) => io.log(`task ${taskId}: ${JSON.stringify(outcome)}`),
        });
      } finally {
        signals.close();
      }
    },
  }),
  verb({
    name: "executor ls",
    summary: "The executors on the queue: capacity, load, last heartbeat, profiles",
    output: { ExecutorList: "fleet/ls.ts" },
    input: { json: { ...json, help: "one JSON object instead of the table" } },
    errors: [...QUEUE_ERRORS],
    annotations: { readOnly: true, idempotent: true },
    looks: true,
    human: true,
    examples: ["spot executor ls --json"],
    run: async (ctx) => (await fleet()).listExecutors(ctx),
  }),
] as const;
