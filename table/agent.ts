/**
 * `spot agent …`: named background agents (docs/agents.md). `poll`, `peek`, `ls` and `watch` give the seed's
 * text lines (the CLI prints them, MCP gives them as the text content); `--json` on the CLI prints the one
 * JSON object instead. Each verb imports only its own module: `agent start` must not load the driver's graph.
 */
import { lazy } from "../base/lazy.ts";
import { SpotError } from "../errors.ts";
import { doc, list, number, text } from "./field.ts";
import { agentName, json, model, profile, sandbox } from "./common.ts";
import { docFile } from "./inputs.ts";
import { verb } from "./verb.ts";

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

const lineJson = { ...json, help: "one JSON object instead of the line" };
const linesJson = { ...json, help: "one JSON object instead of the lines" };
const NAME_ERRORS = ["AGENT_NAME_INVALID", "AGENT_NOT_FOUND"] as const;

export const AGENT_VERBS = [
  verb({
    name: "agent start",
    summary: "Start a named background agent and return at once",
    about:
      "On a task contract (a prepared and run contract run) or a free-form brief run in a worktree of cwd",
    input: {
      name: agentName,
      task: doc("task", "the task contract: the agent is a prepared and run contract run"),
      brief: text("free-form brief (a file, or the text itself), run in a worktree of --cwd", {
        cli: "--brief <fileOrText>",
        complete: "file",
      }),
      profile: { ...profile, help: "worker profile" },
      model,
      cwd: text("where the brief works (a git repository); relative paths resolve here", { complete: "dir" }),
      sandbox,
      redispatchOf: text(
        "after a provider wall: that agent's brief once more, on the next fallback profile (or --profile)",
        { cli: "--redispatch-of <name>", complete: "agents" },
      ),
    },
    errors: [
      ...NAME_ERRORS,
      "AGENT_RUNNING",
      "CONTRACT_INVALID",
      "PROFILE_NOT_FOUND",
      "NO_ROUTABLE_PROFILE",
      "CAPABILITY_MISMATCH",
      "NOT_A_REPOSITORY",
      "CONCURRENCY_LIMIT",
      "STEP_FAILED",
    ],
    cwd: true,
    examples: ["spot agent start fix-add --task task.json", "spot agent start docs-pass --brief brief.md"],
    run: async (ctx, i, io) =>
      (await verbs.start()).startAgent(ctx, i.name, { ...i, task: docFile(ctx, io, "task", i.task) }),
  }),
  verb({
    name: "agent poll",
    summary: "One status line for an agent; a settled agent's line never changes",
    about: "STATUS=OK|FAIL … when settled, RUNNING … while it works",
    input: { name: agentName, json: lineJson },
    errors: [...NAME_ERRORS],
    annotations: { readOnly: true },
    looks: true,
    examples: ["spot agent poll fix-add"],
    run: async (ctx, i) => (await verbs.poll()).pollAgent(ctx, i.name),
    text: (r, i) => i.json ? undefined : r.line,
  }),
  verb({
    name: "agent peek",
    summary: "Four lines on what an agent is doing: run, tools, tokens, last text",
    input: { name: agentName, json: linesJson },
    errors: [...NAME_ERRORS],
    annotations: { readOnly: true, idempotent: true },
    looks: true,
    examples: ["spot agent peek fix-add"],
    run: async (ctx, i) => (await verbs.peek()).peekAgent(ctx, i.name),
    text: (r, i) => i.json ? undefined : r.lines.join("\n"),
  }),
  verb({
    name: "agent ls",
    summary: "Every agent with its poll line (names whose run is gone are pruned)",
    input: { json: linesJson },
    errors: [],
    looks: true,
    examples: ["spot agent ls --json"],
    run: async (ctx) => (await verbs.ls()).listAgents(ctx),
    text: (r, i) =>
      i.json
        ? undefined
        : r.agents.length === 0
        ? "no agents"
        : r.agents.map((a) => `${a.name} ${a.line}`).join("\n"),
  }),
  verb({
    name: "agent watch",
    summary: "Poll the named agents, print each line that changes, return when none runs",
    about: "Each changed line is a progress notification over MCP, and all of them are the text content; a " +
      "provider wall on one stops its siblings here",
    input: {
      names: list("the agents to watch (only these: a wall aborts only their siblings here)", {
        required: true,
        complete: "agents",
      }),
      interval: number("seconds between sweeps (default agents.watchIntervalSeconds)", {
        cli: "--interval <seconds>",
        min: 0,
        exclusiveMin: true,
        parse: seconds,
      }),
    },
    errors: [...NAME_ERRORS],
    annotations: { long: true, readOnly: true },
    examples: ["spot agent watch fix-add docs-pass --interval 10"],
    run: async (ctx, i, io) =>
      (await verbs.watch()).watchAgents(ctx, i.names, { intervalSeconds: i.interval, print: io.print }),
    text: () => "",
  }),
  verb({
    name: "agent send",
    summary: "A follow-up turn: the agent's worker resumes its session with the message, in the same run",
    input: {
      name: agentName,
      message: text("the message (text, or a file holding it)", { required: true, cli: "<message>" }),
    },
    errors: [...NAME_ERRORS, "AGENT_RUNNING", "STATE_INVALID", "CAPABILITY_MISMATCH", "STEP_FAILED"],
    cwd: true,
    examples: ["spot agent send fix-add follow-up.md"],
    run: async (ctx, i) => (await verbs.send()).sendAgent(ctx, i.name, i.message),
  }),
  verb({
    name: "agent stop",
    summary:
      "Stop an agent's processes, end the turn they cut short, unregister its name (harmless to repeat)",
    about: "The run ends failed (AGENT_STOPPED); the worktree stays",
    input: { name: agentName },
    errors: ["AGENT_NAME_INVALID"],
    annotations: { idempotent: true },
    examples: ["spot agent stop fix-add"],
    run: async (ctx, i) => (await verbs.stop()).stopNamedAgent(ctx, i.name),
  }),
  verb({
    name: "agent discard",
    summary:
      "Stop an agent, drop its run (diff kept in diff.patch, worktree and branch removed), unregister it",
    input: { name: agentName },
    errors: [...NAME_ERRORS, "RUN_LOCKED", "STATE_INVALID"],
    annotations: { destructive: true, idempotent: true },
    examples: ["spot agent discard fix-add"],
    run: async (ctx, i) => (await verbs.discard()).discardNamedAgent(ctx, i.name),
  }),
  verb({
    name: "agent drive",
    summary: "Run an agent's turn (started by agent start)",
    input: { name: agentName },
    errors: [...NAME_ERRORS],
    annotations: { long: true },
    faces: ["cli"],
    hidden: true,
    examples: ["spot agent drive fix-add"],
    run: async (ctx, i) => (await verbs.drive()).driveAgent(ctx, i.name),
  }),
] as const;
