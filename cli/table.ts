/** Every command, in the order help lists them: the loop's verbs, the tools, the named agents. */
import { LOOP_COMMANDS } from "./commands.ts";
import { TOOL_COMMANDS } from "./commands_tools.ts";
import { AGENT_COMMAND } from "./commands_agent.ts";
import type { CommandSpec } from "./spec.ts";

export const COMMANDS: CommandSpec[] = [...LOOP_COMMANDS, ...TOOL_COMMANDS, AGENT_COMMAND];
