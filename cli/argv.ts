/**
 * The fast parser: reads a well-formed call against the command table without loading commander (about
 * a third of a verb's start-up). Anything it is not sure of (help, a version, an unknown or repeated option,
 * a missing value or required option, a missing or extra positional, `--`) gives null, and commander parses the call instead,
 * so every message a person sees still comes from one place. cli/argv_test.ts holds the two parsers equal.
 */
import { type CommandSpec, optionKey, type Options, optionShape } from "./spec.ts";

export interface Parsed {
  command: CommandSpec;
  options: Options;
}

function findCommand(table: CommandSpec[], name: string | undefined): CommandSpec | undefined {
  return name === undefined ? undefined : table.find((c) => c.name === name || c.alias === name);
}

/** The command and its options, or null when commander must decide. */
export function parseFast(table: CommandSpec[], argv: string[]): Parsed | null {
  let command = findCommand(table, argv[0]);
  let rest = argv.slice(1);
  while (command?.commands) {
    command = findCommand(command.commands, rest[0]);
    rest = rest.slice(1);
  }
  if (!command?.run) return null;
  const options: Options = {};
  const specs = command.options ?? [];
  for (const spec of specs) {
    const { negated } = optionShape(spec.flags);
    if (spec.default !== undefined) options[optionKey(spec.flags)] = spec.default;
    else if (negated) options[optionKey(spec.flags)] = true;
  }
  const seen = new Set<string>();
  const positional: string[] = [];
  for (let i = 0; i < rest.length; i++) {
    const arg = rest[i];
    if (!arg.startsWith("-")) {
      positional.push(arg);
      continue;
    }
    if (!arg.startsWith("--") || arg === "--") return null;
    const eq = arg.indexOf("=");
    const flag = eq === -1 ? arg : arg.slice(0, eq);
    const spec = specs.find((s) => optionShape(s.flags).long === flag);
    if (!spec || seen.has(flag)) return null;
    seen.add(flag);
    const { takesValue, negated } = optionShape(spec.flags);
    const key = optionKey(spec.flags);
    if (!takesValue) {
      if (eq !== -1) return null;
      options[key] = !negated;
      continue;
    }
    let value: string;
    if (eq !== -1) value = arg.slice(eq + 1);
    else {
      const next = rest[i + 1];
      if (next === undefined || next.startsWith("-")) return null;
      value = next;
      i++;
    }
    options[key] = spec.parse ? spec.parse(value) : value;
  }
  for (const spec of specs) {
    if (spec.required && options[optionKey(spec.flags)] === undefined) return null;
  }
  const args = command.args ?? [];
  const variadic = args[args.length - 1]?.variadic === true;
  if (variadic ? positional.length < args.length : positional.length !== args.length) return null;
  args.forEach((a, i) => options[a.name] = a.variadic ? positional.slice(i) : positional[i]);
  return { command, options };
}
