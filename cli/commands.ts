/**
 * The command table, built from the verb table (table/): each verb's CLI words, help, options and
 * positionals, and (given `run`) a function that runs it. A verb named `agent start` is the command `start`
 * of the group `agent`.
 */
import { cliHelp, cliSpelling, completionOf } from "../table/field.ts";
import { GROUPS } from "../table/index.ts";
import { type AnyVerb, verbOn } from "../table/verb.ts";
import { cliFields } from "./fields.ts";
import type { ArgSpec, CommandSpec, Options, OptionSpec } from "./spec.ts";
import type { Invocation } from "./invoke.ts";

type Run = (v: AnyVerb, options: Options, cli: Invocation) => Promise<void>;

function commandOf(v: AnyVerb, run?: Run): CommandSpec {
  const fields = cliFields(v);
  const args: ArgSpec[] = fields.filter((f) => f.positional).map(({ cliKey, field }) => ({
    name: cliKey,
    help: cliHelp(field),
    ...(field.kind === "list" ? { variadic: true } : {}),
    ...(field.kind === "text" && field.values ? { values: field.values } : {}),
    ...(completionOf(field) ? { complete: completionOf(field) } : {}),
  }));
  const options: OptionSpec[] = fields.filter((f) => !f.positional).map(({ key, field }) => ({
    flags: cliSpelling(key, field),
    help: cliHelp(field),
    ...(field.required ? { required: true } : {}),
    ...("parse" in field && field.parse ? { parse: field.parse } : {}),
    ...(field.kind === "text" && field.default !== undefined ? { default: field.default } : {}),
    ...(field.kind === "text" && field.values ? { values: field.values } : {}),
    ...(completionOf(field) ? { complete: completionOf(field) } : {}),
  }));
  return {
    name: v.name.split(" ").at(-1)!,
    help: v.summary,
    ...(v.alias ? { alias: v.alias } : {}),
    ...(v.hidden ? { hidden: true } : {}),
    ...(args.length ? { args } : {}),
    ...(options.length ? { options } : {}),
    example: v.examples[0],
    ...(run ? { run: (o: Options, cli: Invocation) => run(v, o, cli) } : {}),
  };
}

/** The commands of every verb on the CLI, in the order of the verb table. */
export function buildCommands(verbs: readonly AnyVerb[], run?: Run): CommandSpec[] {
  const top: CommandSpec[] = [];
  for (const v of verbs) {
    if (!verbOn(v, "cli")) continue;
    const words = v.name.split(" ");
    if (words.length === 1) {
      top.push(commandOf(v, run));
      continue;
    }
    let group = top.find((c) => c.name === words[0]);
    if (!group) {
      group = { name: words[0], help: GROUPS[words[0]], commands: [] };
      top.push(group);
    }
    group.commands!.push(commandOf(v, run));
  }
  for (const group of top.filter((c) => c.commands)) {
    const visible = group.commands!.filter((c) => !c.hidden).map((c) => c.name);
    group.help = `${group.help}: ${visible.join(", ")}`;
  }
  return top;
}
