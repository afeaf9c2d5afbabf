/**
 * The command table: every verb of the table (table/mod.ts) as a command, for commander, help and
 * completions. A well-formed call does not need it: cli.ts builds the commands of the call's own table
 * module only (`commandsFor`).
 */
import { type AnyVerb, VERBS } from "../table/mod.ts";
import { buildCommands } from "./commands.ts";
import { runOnCli } from "./run_verb.ts";
import type { CommandSpec } from "./spec.ts";

export const COMMANDS: CommandSpec[] = buildCommands(VERBS as readonly AnyVerb[], runOnCli);
