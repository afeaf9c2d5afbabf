/** A verb's fields as the command line takes them: options and positionals, with their parsers' keys. */
import { cliSpelling, type Field, fieldOn, isPositional } from "../table/field.ts";
import type { AnyVerb } from "../table/verb.ts";
import { optionKey, type Options } from "./spec.ts";

/** The fields the CLI shows, each with the key its parsers give it (`--id <runId>` is `id`). */
export function cliFields(v: AnyVerb): { key: string; cliKey: string; field: Field; positional: boolean }[] {
  return Object.entries(v.input as Record<string, Field>).filter(([, f]) => fieldOn(f, "cli")).map(
    ([key, field]) => {
      const positional = isPositional(key, field);
      const spelling = cliSpelling(key, field);
      const cliKey = positional ? spelling.replace(/[<>.]/g, "") : optionKey(spelling);
      return { key, cliKey, field, positional };
    },
  );
}

/** The verb's input from the parsed options (the CLI's keys are its spellings: `--id` is `id`). */
export function cliInput(v: AnyVerb, options: Options): Record<string, unknown> {
  const input: Record<string, unknown> = {};
  for (const { key, cliKey } of cliFields(v)) if (options[cliKey] !== undefined) input[key] = options[cliKey];
  return input;
}
