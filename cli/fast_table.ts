/** The commands of the table module a call's first word names, or none (commander then sees the call). */
import { MODULE_OF, TABLE_MODULES } from "../table/index.ts";
import { buildCommands } from "./commands.ts";
import { runOnCli } from "./run_verb.ts";
import type { CommandSpec } from "./spec.ts";

export async function commandsFor(word: string | undefined): Promise<CommandSpec[]> {
  const module = word === undefined ? undefined : MODULE_OF[word];
  return module ? buildCommands(await TABLE_MODULES[module](), runOnCli) : [];
}
