/**
 * The `spot agent …` subcommands. `start`, `stop` and `send` print one JSON
 * object like every verb; `poll`, `peek`, `ls` and `watch` print the seed's
 * lines (one JSON object with `--json`), because a parent reads them as text.
 */
import type { Command } from "@commander-js/extra-typings";
import { SpotError } from "../errors.ts";
import type { Invocation } from "./invoke.ts";
import { writeOut } from "./output.ts";

function seconds(value: string): number {
  const n = Number(value);
  if (Number.isFinite(n) && n > 0) return n;
  throw new SpotError(
    "CLI_USAGE",
    `Cannot read "${value}" as an interval: expected a number of seconds above 0`,
  );
}

const agents = () => import("../agents/mod.ts");

export function agentCommands(agent: Command, cli: Invocation): void {
  const verb = cli.verb.bind(cli);
  const lines = <T extends object>(
    name: string,
    o: { json?: boolean },
    fn: Parameters<Invocation["verb"]>[2],
    text: (r: T) => string,
  ) => o.json ? verb(name, o, fn) : cli.text(name, o, async (ctx) => text(await fn(ctx) as T) + "\n");

  agent.command("start").description("Start a named background agent and return at once")
    .argument("<name>", "the agent's name: letters, digits, _ and -, starting with a letter or digit")
    .option("--task <file>", "task contract (JSON): the agent is a prepared and run contract run")
    .option(
      "--brief <fileOrText>",
      "free-form brief (a file, or the text itself), run in a worktree of --cwd",
    )
    .option("--profile <name>", "worker profile")
    .option("--model <model>", "model override (for replay: the episode file)")
    .option("--cwd <dir>", "where the brief works (a git repository); relative paths resolve here")
    .option("--sandbox <mode>", "OS sandbox: auto, bwrap or none")
    .action(async (name, o) => {
      const { startAgent } = await agents();
      await verb("agent start", { name, ...o }, (ctx) => startAgent(ctx, name, o));
    });

  agent.command("poll").description("One status line for an agent; a settled agent's line never changes")
    .argument("<name>").option("--json", "one JSON object instead of the line")
    .action(async (name, o) => {
      const { pollAgent } = await agents();
      await lines("agent poll", o, (ctx) => pollAgent(ctx, name), (r: { line: string }) => r.line);
    });

  agent.command("peek").description("Four lines on what an agent is doing: run, tools, tokens, last text")
    .argument("<name>").option("--json", "one JSON object instead of the lines")
    .action(async (name, o) => {
      const { peekAgent } = await agents();
      await lines(
        "agent peek",
        o,
        (ctx) => peekAgent(ctx, name),
        (r: { lines: string[] }) => r.lines.join("\n"),
      );
    });

  agent.command("ls").description("Every agent with its poll line (names whose run is gone are pruned)")
    .option("--json", "one JSON object instead of the lines")
    .action(async (o) => {
      const { listAgents } = await agents();
      await lines(
        "agent ls",
        o,
        (ctx) => listAgents(ctx),
        (r: { agents: { name: string; line: string }[] }) =>
          r.agents.length === 0 ? "no agents" : r.agents.map((a) => `${a.name} ${a.line}`).join("\n"),
      );
    });

  agent.command("watch").description(
    "Poll the named agents, print each line that changes, return when none runs",
  )
    .argument("<names...>", "the agents to watch (only these: a wall aborts only their siblings here)")
    .option("--interval <seconds>", "seconds between sweeps (default agents.watchIntervalSeconds)", seconds)
    .action(async (names, o) => {
      const { watchAgents } = await agents();
      await cli.text("agent watch", { names, ...o }, async (ctx) => {
        await watchAgents(ctx, names, { intervalSeconds: o.interval, print: (t) => writeOut(t + "\n") });
        return "";
      });
    });

  agent.command("stop").description("Stop an agent's processes and unregister its name (harmless to repeat)")
    .argument("<name>")
    .action(async (name) => {
      const { stopNamedAgent } = await agents();
      await verb("agent stop", { name }, (ctx) => stopNamedAgent(ctx, name));
    });

  agent.command("drive", { hidden: true }).description("Run an agent's turn (started by agent start)")
    .argument("<name>")
    .action(async (name) => {
      const { driveAgent } = await agents();
      await verb("agent drive", { name }, (ctx) => driveAgent(ctx, name), { interruptible: true });
    });
}
