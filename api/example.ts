/** A verb's first CLI example as the library call that does the same, for the generated docs. */
import { parseFast } from "../cli/argv.ts";
import { buildCommands } from "../cli/commands.ts";
import { cliInput } from "../cli/fields.ts";
import { type AnyVerb, type Field, fieldOn, libName } from "../table/mod.ts";

export function exampleCall(v: AnyVerb): string {
  const argv = [...v.examples[0].matchAll(/"([^"]*)"|(\S+)/g)].map((m) => m[1] ?? m[2]).slice(1);
  const parsed = parseFast(buildCommands([v], () => Promise.resolve()), argv);
  if (!parsed) throw new Error(`The example of "${v.name}" is no call of it: ${v.examples[0]}`);
  const fields = v.input as Record<string, Field>;
  const input = Object.entries(cliInput(v, parsed.options)).filter(([k]) => fieldOn(fields[k], "lib"));
  const args = input.map(([k, value]) => `${k}: ${JSON.stringify(value)}`).join(", ");
  return `${libName(v)}(${args ? `{ ${args} }` : "{}"})`;
}
