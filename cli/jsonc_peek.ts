/** A lenient read of a JSONC file (comments, trailing commas), for the one key the error path needs. */
import { parse } from "jsonc-parser";

export function parseLoose(text: string): unknown {
  return parse(text, [], { allowTrailingComma: true, disallowComments: false });
}
