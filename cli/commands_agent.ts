/**
 * The command table, part three: `spot agent …`, named background agents (docs/agents.md). `start`, `stop`
 * and `drive` print one JSON object like every verb; `poll`, `peek`, `ls` and `watch` print the seed's lines
 * (one JSON object with `--json`), because a parent reads them as text.
 */
import { lazy } from "../base/lazy.ts";
import { SpotError } from "../errors.ts";
import type { SpotContext } from "../store/context.ts";
import type { Invocation } from "./invoke.ts";
import { writeOut } from "./output.ts";
import { type CommandSpec, maybeText, type Options, type OptionSpec, text } from "./spec.ts";

/** Each verb imports only its own module: `agent start` must not load the driver's whole run graph. */
const verbs = {
  start: () => lazy<typeof import("../agents/start.ts")>("../agents/start.ts", import.meta.url),
  poll: () => lazy<typeof import("../agents/poll.ts")>("../agents/poll.ts", import.meta.url),
  peek: () => lazy<typeof import("../agents/peek.ts")>("../agents/peek.ts", import.meta.url),
  ls: () => lazy<typeof import("../agents/ls.ts")>("../agents/ls.ts", import.meta.url),
  watch: () => lazy<typeof import("../agents/watch.ts")>("../agents/watch.ts", import.meta.url),
  send: () => lazy<typeof import("../agents/send.ts")>("../agents/send.ts", import.meta.url),
  stop: () => lazy<typeof import("../agents/stop_verb.ts")>("../agents/stop_verb.ts", import.meta.url),
  discard: () => lazy<typeof import("../agents/discard.ts")>("../agents/discard.ts", import.meta.url),
  drive: () => lazy<typeof import("../agents/drive.ts")>("../agents/drive.ts", import.meta.url),
};

function seconds(value: string): number {
  const n = Number(value);
  if (Number.isFinite(n) && n > 0) return n;
  throw new SpotError(
    "CLI_USAGE",
    `Cannot read "${value}" as an interval: expected a number of seconds above 0`,
  );
}

const NAME = {
  name: "name",
  help: "the agent's name: letters, digits, _ and -, starting with a letter or digit",
};
const JSON_FLAG: OptionSpec = { flags: "--json", help: "one JSON object instead of the lines" };

/** The seed's text lines, or with `--json` the verb's one JSON object; these only look (create nothing). */
function lines<T extends object>(
  cli: Invocation,
  name: string,
  o: Options,
  fn: (ctx: SpotContext) => Promise<T>,
  render: (r: T) => string,
): Promise<void> {
  if (o.json === true) return cli.verb(name, o, fn, { readOnly: true });
  return cli.text(name, o, async (ctx) => render(await fn(ctx)) + "\n", { readOnly: true });
}

const AGENT_COMMANDS: CommandSpec[] = [
  {
    name: "start",
    help: "Start a named background agent and return at once",
    args: [NAME],
    options: [
      { flags: "--task <file>", help: "task contract (JSON): the agent is a prepared and run contract run" },
      {
        flags: "--brief <fileOrText>",
        help: "free-form brief (a file, or the text itself), run in a worktree of --cwd",
      },
      { flags: "--profile <name>", help: "worker profile" },
      { flags: "--model <model>", help: "model override (for replay: the episode file)" },
      { flags: "--cwd <dir>", help: "where the brief works (a git repository); relative paths resolve here" },
      { flags: "--sandbox <mode>", help: "OS sandbox: auto, bwrap or none" },
      {
        flags: "--redispatch-of <name>",
        help:
          "after a provider wall: that agent's brief once more, on the next fallback profile (or --profile)",
      },
    ],
    run: (o, cli) =>
      cli.verb("agent start", o, async (ctx) =>
        (await verbs.start()).startAgent(ctx, text(o, "name"), {
          task: maybeText(o, "task"),
          brief: maybeText(o, "brief"),
          profile: maybeText(o, "profile"),
          model: maybeText(o, "model"),
          cwd: maybeText(o, "cwd"),
          sandbox: maybeText(o, "sandbox"),
          redispatchOf: maybeText(o, "redispatchOf"),
        })),
  },
  {
    name: "poll",
    help: "One status line for an agent; a settled agent's line never changes",
    args: [NAME],
    options: [{ ...JSON_FLAG, help: "one JSON object instead of the line" }],
    run: (o, cli) =>
      lines(
        cli,
        "agent poll",
        o,
        async (ctx) => (await verbs.poll()).pollAgent(ctx, text(o, "name")),
        (r) => r.line,
      ),
  },
  {
    name: "peek",
    help: "Four lines on what an agent is doing: run, tools, tokens, last text",
    args: [NAME],
    options: [JSON_FLAG],
    run: (o, cli) =>
      lines(
        cli,
        "agent peek",
        o,
        async (ctx) => (await verbs.peek()).peekAgent(ctx, text(o, "name")),
        (r) => r.lines.join("\n"),
      ),
  },
  {
    name: "ls",
    help: "Every agent with its poll line (names whose run is gone are pruned)",
    options: [JSON_FLAG],
    run: (o, cli) =>
      lines(
        cli,
        "agent ls",
        o,
        async (ctx) => (await verbs.ls()).listAgents(ctx),
        (r) => r.agents.length === 0 ? "no agents" : r.agents.map((a) => `${a.name} ${a.line}`).join("\n"),
      ),
  },
  {
    name: "watch",
    help: "Poll the named agents, print each line that changes, return when none runs",
    args: [{
      name: "names",
      help: "the agents to watch (only these: a wall aborts only their siblings here)",
      variadic: true,
    }],
    options: [{
      flags: "--interval <seconds>",
      help: "seconds between sweeps (default agents.watchIntervalSeconds)",
      parse: seconds,
    }],
    run: (o, cli) =>
      cli.text("agent watch", o, async (ctx) => {
        const print = (t: string) => writeOut(t + "\n");
        const intervalSeconds = o.interval as number | undefined;
        await (await verbs.watch()).watchAgents(ctx, o.names as string[], { intervalSeconds, print });
        return "";
      }),
  },
  {
    name: "send",
    help: "A follow-up turn: the agent's worker resumes its session with the message, in the same run",
    args: [NAME, { name: "message", help: "the message (text, or a file holding it)" }],
    run: (o, cli) =>
      cli.verb(
        "agent send",
        o,
        async (ctx) => (await verbs.send()).sendAgent(ctx, text(o, "name"), text(o, "message")),
      ),
  },
  {
    name: "stop",
    help: "Stop an agent's processes, end the turn they cut short, unregister its name (harmless to repeat)",
    args: [NAME],
    run: (o, cli) =>
      cli.verb("agent stop", o, async (ctx) => (await verbs.stop()).stopNamedAgent(ctx, text(o, "name"))),
  },
  {
    name: "discard",
    help: "Stop an agent, drop its run (diff kept in diff.patch, worktree and branch removed), unregister it",
    args: [NAME],
    run: (o, cli) =>
      cli.verb(
        "agent discard",
        o,
        async (ctx) => (await verbs.discard()).discardNamedAgent(ctx, text(o, "name")),
      ),
  },
  {
    name: "drive",
    hidden: true,
    help: "Run an agent's turn (started by agent start)",
    args: [NAME],
    run: (o, cli) =>
      cli.verb(
        "agent drive",
        o,
        async (ctx) => (await verbs.drive()).driveAgent(ctx, text(o, "name")),
        { interruptible: true },
      ),
  },
];

export const AGENT_COMMAND: CommandSpec = {
  name: "agent",
  help: "Named background agents: start, poll, peek, send, ls, watch, stop, discard",
  commands: AGENT_COMMANDS,
};
