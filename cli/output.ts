/** The CLI's outputs: one JSON object on stdout for success, one on stderr for failure; warnings on stderr. */
import { isSpotError, SpotError } from "../errors.ts";

const encoder = new TextEncoder();

export function writeOut(text: string): void {
  Deno.stdout.writeSync(encoder.encode(text));
}

export function writeErr(text: string): void {
  Deno.stderr.writeSync(encoder.encode(text));
}

/** A warning a person should read, never part of the JSON: one line on stderr. */
export function printWarning(text: string): void {
  writeErr(`spot: warning: ${text}\n`);
}

export function printOk(command: string, result: object): void {
  writeOut(JSON.stringify({ ok: true, command, ...result }) + "\n");
}

/** Prints the error as `{"ok":false,"error":{code,message,details}}` and returns its exit code. */
export function printError(error: unknown): number {
  const spot = isSpotError(error) ? error : new SpotError(
    "INTERNAL",
    `Unexpected failure: ${error instanceof Error ? error.message : String(error)}`,
    {
      details: { stack: error instanceof Error ? error.stack?.split("\n").slice(0, 6) : undefined },
    },
  );
  writeErr(JSON.stringify({ ok: false, error: spot.toJSON() }) + "\n");
  return spot.exitCode;
}
