/**
 * Commander, built from the command table: it parses every call the fast parser (cli/argv.ts) hands on,
 * and writes help and the version. Its own error lines (`error: unknown command …`) are never printed: a
 * usage error is one CLI_USAGE JSON object on stderr like every failure, with commander's words (and its
 * suggestion) as the message. Loaded only for those calls.
 */
import { Command, CommanderError } from "commander";
import { SpotError } from "../errors.ts";
import type { Invocation } from "./invoke.ts";
import type { CommandSpec, Options } from "./spec.ts";
import { VERSION } from "./version.ts";
import { humanNote } from "./output.ts";

function addCommand(parent: Command, spec: CommandSpec, cli: Invocation, prefix: string[] = []): void {
  const command = parent.command(spec.name, { hidden: spec.hidden === true }).description(spec.help);
  if (spec.alias) command.alias(spec.alias);
  const path = [...prefix, spec.name];
  if (spec.example) command.addHelpText("after", `\nExample:\n  ${spec.example}\n`);
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

/** Where commander's stderr goes: its error lines are dropped, the help it shows for a bad call is kept. */
export interface ErrorSink {
  help: string;
}

export function buildProgram(table: CommandSpec[], cli: Invocation, sink: ErrorSink = { help: "" }): Command {
  const program = new Command()
    .name("spot")
    .description("Delegate bounded coding tasks to cheap worker CLIs, verified and sandboxed")
    .version(VERSION)
    .exitOverride()
    // Set before the commands are added: each copies its parent's output settings.
    .configureOutput({
      writeErr: (text) => {
        sink.help += text;
      },
      outputError: () => {},
    })
    .showSuggestionAfterError();
  for (const spec of table) addCommand(program, spec, cli);
  return program;
}

/** The command names a help text lists under `Commands:`. */
function listedCommands(help: string): string[] {
  const block = help.split(/^Commands:\n/m)[1] ?? "";
  return [...block.matchAll(/^ {2}([a-z][\w-]*)/gm)].map((m) => m[1]).filter((name) => name !== "help");
}

/** A call that named a command group and no command of it: commander shows the group's help instead. */
function missingCommand(help: string): SpotError {
  const usage = /^Usage: (\S+(?: [a-z][\w-]*)*)/m.exec(help)?.[1] ?? "spot";
  const names = listedCommands(help);
  return new SpotError(
    "CLI_USAGE",
    `Cannot run "${usage}" alone: name one of its commands${names.length ? ` (${names.join(", ")})` : ""}`,
    { details: { commands: names, hint: `${usage} --help` } },
  );
}

/** Parses and runs a call; help and the version exit 0, a usage error is CLI_USAGE. */
export async function parseWithCommander(
  table: CommandSpec[],
  cli: Invocation,
  argv: string[],
): Promise<void> {
  const sink: ErrorSink = { help: "" };
  try {
    await buildProgram(table, cli, sink).parseAsync(argv, { from: "user" });
  } catch (error) {
    if (!(error instanceof CommanderError)) throw error;
    if (
      error.code === "commander.helpDisplayed" || error.code === "commander.version" || error.exitCode === 0
    ) {
      return;
    }
    if (error.code === "commander.help") {
      // The help is for a person; a program reads the JSON that follows it (or, piped, only the JSON).
      humanNote(sink.help);
      throw missingCommand(sink.help);
    }
    throw new SpotError("CLI_USAGE", error.message.replace(/^error: /, "").replace(/\s*\n\s*/g, " "));
  }
}
