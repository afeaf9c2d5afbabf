/** Every command, in the order help lists them: the loop's verbs, the tools, the named agents, the task graphs. */
import { LOOP_COMMANDS } from "./commands.ts";
import { TOOL_COMMANDS } from "./commands_tools.ts";
import { AGENT_COMMAND } from "./commands_agent.ts";
import { JOB_COMMAND } from "./commands_job.ts";
import { SpotError } from "../errors.ts";
import { lazy } from "../base/lazy.ts";
import { writeOut } from "./output.ts";
import { type CommandSpec, JSON_OPTION, text } from "./spec.ts";

/** `spot completions <shell>`: here, because the script is made from the whole table. */
const COMPLETIONS: CommandSpec = {
  name: "completions",
  help: "Print a completion script for bash, zsh or fish",
  args: [{ name: "shell", help: "bash, zsh or fish" }],
  run: async (o) => {
    const { completionScript, SHELLS } = await lazy<typeof import("./completions.ts")>(
      "./completions.ts",
      import.meta.url,
    );
    const shell = text(o, "shell");
    const known = SHELLS.find((s) => s === shell);
    if (!known) {
      throw new SpotError("CLI_USAGE", `Cannot complete for "${shell}": expected ${SHELLS.join(", ")}`);
    }
    writeOut(completionScript(COMMANDS, known));
  },
};

/**
 * A command with a `view` gets `--json` and shows its result through the view on a terminal: the view is
 * handed to the invocation before the command runs, so the command's own `run` stays as it is.
 */
export function withViews(spec: CommandSpec): CommandSpec {
  const commands = spec.commands?.map(withViews);
  const { view, run } = spec;
  if (!view || !run) return commands ? { ...spec, commands } : spec;
  const options = spec.options ?? [];
  return {
    ...spec,
    options: options.some((o) => o.flags === JSON_OPTION.flags) ? options : [...options, JSON_OPTION],
    run: (o, cli) => {
      cli.view = view;
      return run(o, cli);
    },
  };
}

export const COMMANDS: CommandSpec[] = [
  ...LOOP_COMMANDS,
  ...TOOL_COMMANDS,
  AGENT_COMMAND,
  JOB_COMMAND,
  COMPLETIONS,
].map(withViews);
