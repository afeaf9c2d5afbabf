/** Every command, in the order help lists them: the loop's verbs, then the tools. */
import { LOOP_COMMANDS } from "./commands.ts";
import { TOOL_COMMANDS } from "./commands_tools.ts";
import type { CommandSpec } from "./spec.ts";

export const COMMANDS: CommandSpec[] = [...LOOP_COMMANDS, ...TOOL_COMMANDS];
