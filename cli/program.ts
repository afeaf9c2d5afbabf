/**
 * Commander, built from the command table: it parses every call the fast parser (cli/argv.ts) hands on,
 * and writes help, the version and every usage error. Loaded only for those calls.
 */
import { Command, CommanderError } from "commander";
import { SpotError } from "../errors.ts";
import type { Invocation } from "./invoke.ts";
import type { CommandSpec, Options } from "./spec.ts";
import { VERSION } from "./version.ts";
import { EXAMPLES } from "./examples.ts";

function addCommand(parent: Command, spec: CommandSpec, cli: Invocation, prefix: string[] = []): void {
  const command = parent.command(spec.name, { hidden: spec.hidden === true }).description(spec.help);
  if (spec.alias) command.alias(spec.alias);
  const path = [...prefix, spec.name];
  const example = EXAMPLES[path.join(" ")];
  if (example) command.addHelpText("after", `\nExample:\n  ${example}\n`);
  const args = spec.args ?? [];
  for (const a of args) command.argument(a.variadic ? `<${a.name}...>` : `<${a.name}>`, a.help);
  for (const option of spec.options ?? []) {
    const add = (option.required ? command.requiredOption : command.option).bind(command);
    if (option.parse) add(option.flags, option.help, option.parse);
    else if (option.default !== undefined) add(option.flags, option.help, option.default);
    else add(option.flags, option.help);
  }
  for (const sub of spec.commands ?? []) addCommand(command, sub, cli, path);
  const run = spec.run;
  if (!run) return;
  // Commander passes the positionals first, then the options: the table's verbs get them in one object.
  command.action((...values: unknown[]) => {
    const options = { ...(values[args.length] as Options) };
    args.forEach((a, i) => options[a.name] = values[i] as string | string[]);
    return run(options, cli);
  });
}

export function buildProgram(table: CommandSpec[], cli: Invocation): Command {
  const program = new Command()
    .name("spot")
    .description("Delegate bounded coding tasks to cheap worker CLIs, verified and sandboxed")
    .version(VERSION)
    .exitOverride()
    .showSuggestionAfterError();
  for (const spec of table) addCommand(program, spec, cli);
  return program;
}

/** Parses and runs a call; help and the version exit 0, a usage error is CLI_USAGE. */
export async function parseWithCommander(
  table: CommandSpec[],
  cli: Invocation,
  argv: string[],
): Promise<void> {
  try {
    await buildProgram(table, cli).parseAsync(argv, { from: "user" });
  } catch (error) {
    if (!(error instanceof CommanderError)) throw error;
    if (
      error.code === "commander.helpDisplayed" || error.code === "commander.version" || error.exitCode === 0
    ) {
      return;
    }
    throw new SpotError("CLI_USAGE", error.message.replace(/^error: /, ""));
  }
}
