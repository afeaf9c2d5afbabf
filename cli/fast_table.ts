/**
 * The commands a call's first word names, from its own table module only, or none (commander then sees the
 * call). Only the verbs that word can reach are built: the table's others (about ten) would cost their
 * fields' spellings on every start, cold code all of it (~0.5 ms, several ms now and then).
 */
import { MODULE_OF, TABLE_MODULES } from "../table/index.ts";
import { buildCommands } from "./commands.ts";
import { runOnCli } from "./run_verb.ts";
import type { CommandSpec } from "./spec.ts";

export async function commandsFor(word: string | undefined): Promise<CommandSpec[]> {
  const module = word === undefined ? undefined : MODULE_OF[word];
  if (!module) return [];
  // A top-level command is found by its name or alias; a group's by its first word, its subcommands within.
  const verbs = (await TABLE_MODULES[module]()).filter((v) =>
    v.name.split(" ")[0] === word || v.alias === word
  );
  return buildCommands(verbs, runOnCli);
}
