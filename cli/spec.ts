/**
 * The command table's shape: each command as data (name, help, options) with a `run` that imports its verb
 * only when called, built from the verb table (cli/table.ts). Two parsers read it: the fast one in
 * cli/argv.ts for well-formed calls, and commander (cli/program.ts, loaded only when needed) for help,
 * versions and every error message.
 */
import type { Invocation } from "./invoke.ts";

/** An option's value after parsing: a string, a flag, or what its `parse` returned. */
export type OptionValue = string | string[] | boolean | number | undefined;
export type Options = Record<string, OptionValue>;

export interface OptionSpec {
  /** As commander spells it: `--id <runId>`, `--running`, `--no-open`. */
  flags: string;
  help: string;
  required?: boolean;
  /** Turns the text into the value; throws a CLI_USAGE SpotError for a bad one. */
  parse?: (value: string) => number | boolean;
  default?: string;
  /** Fixed values, offered by completions. */
  values?: readonly string[];
  /** Dynamic values completions offer: run ids, agent names, job ids, or paths. */
  complete?: string;
}

/** A positional argument; its value is in the options under `name` (a list when `variadic`). */
export interface ArgSpec {
  name: string;
  help: string;
  variadic?: boolean;
  values?: readonly string[];
  complete?: string;
}

export interface CommandSpec {
  name: string;
  alias?: string;
  help: string;
  /** Left out of help (a verb spot runs itself, such as `agent drive`). */
  hidden?: boolean;
  args?: ArgSpec[];
  options?: OptionSpec[];
  /** Subcommands (`config path`); a command has these or a `run`. */
  commands?: CommandSpec[];
  run?: (options: Options, cli: Invocation) => Promise<void>;
  /** A call shown under `--help`. */
  example?: string;
}

/** The option's key as commander names it: `--usage-start` is `usageStart`, `--no-open` is `open`. */
export function optionKey(flags: string): string {
  const long = flags.split(/\s+/)[0].replace(/^--(no-)?/, "");
  return long.replace(/-([a-z])/g, (_, c: string) => c.toUpperCase());
}

/** Whether the option takes a value (`<x>`), and whether it is the negating `--no-x` form. */
export function optionShape(flags: string): { takesValue: boolean; negated: boolean; long: string } {
  const [long, value] = flags.split(/\s+/);
  return { takesValue: value !== undefined, negated: long.startsWith("--no-"), long };
}
