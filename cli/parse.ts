/** Option parsers for the command table; a bad value is a CLI_USAGE error. */
import { SpotError } from "../errors.ts";

/** A whole number of at least 0, for paging options. */
export function positiveInt(value: string): number {
  const n = Number(value);
  if (Number.isInteger(n) && n >= 0) return n;
  throw new SpotError(
    "CLI_USAGE",
    `Cannot read "${value}" as a count: expected a whole number of at least 0`,
  );
}

/** `--flag true|false`, as the seed spells its picker switches. */
export function parseBool(value: string): boolean {
  if (value === "true" || value === "false") return value === "true";
  throw new SpotError("CLI_USAGE", `Cannot read "${value}" as a boolean: expected true or false`);
}
