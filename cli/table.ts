/** Every command, in the order help lists them: the loop's verbs, the tools, the named agents, the task graphs. */
import { LOOP_COMMANDS } from "./commands.ts";
import { TOOL_COMMANDS } from "./commands_tools.ts";
import { AGENT_COMMAND } from "./commands_agent.ts";
import { JOB_COMMAND } from "./commands_job.ts";
import { EXECUTOR_COMMAND } from "./commands_fleet.ts";
import { SpotError } from "../errors.ts";
import { lazy } from "../base/lazy.ts";
import { writeOut } from "./output.ts";
import { type CommandSpec, text } from "./spec.ts";

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

export const COMMANDS: CommandSpec[] = [
  ...LOOP_COMMANDS,
  ...TOOL_COMMANDS,
  AGENT_COMMAND,
  JOB_COMMAND,
  EXECUTOR_COMMAND,
  COMPLETIONS,
];
