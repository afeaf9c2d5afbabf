/**
 * The CLI's outputs: one JSON object on stdout for success, exactly one on stderr for failure. Warnings
 * (legacy config keys) travel inside that JSON as `warnings`; a person at a terminal also reads them as
 * `spot: warning:` lines on stderr, a program never has to skip them.
 */
import { isSpotError, SpotError } from "../errors.ts";
import type { FileWarning } from "../config/loaded.ts";
import { exitCodeFor, exitStyle, signalExitFor } from "./exit_codes.ts";
import { lazy } from "../base/lazy.ts";

const encoder = new TextEncoder();

export function writeOut(text: string): void {
  Deno.stdout.writeSync(encoder.encode(text));
}

export function writeErr(text: string): void {
  Deno.stderr.writeSync(encoder.encode(text));
}

/** One line on stderr whatever stderr is: for `spot mcp`, whose stderr is a log and stdout the protocol. */
export function printWarning(text: string): void {
  writeErr(`spot: warning: ${text}\n`);
}

/** Text for a person: written only when stderr is a terminal, so a program's stderr stays one JSON object. */
export function humanNote(text: string, isTerminal = Deno.stderr.isTerminal()): void {
  if (isTerminal) writeErr(text.endsWith("\n") ? text : `${text}\n`);
}

/** One warning as a verb's JSON carries it: the human line (`text`) and, for a config key, where it is. */
export type WarningEntry = { text: string } & Partial<FileWarning>;

/** The warnings of one command: kept for its JSON, and shown at once to a person at a terminal. */
export class Warnings {
  readonly list: WarningEntry[] = [];
  constructor(private readonly human = Deno.stderr.isTerminal()) {}

  /** The `warn` every context and config verb is given. */
  readonly add = (text: string, warning?: FileWarning): void => {
    this.list.push({ text, ...warning });
    if (this.human) writeErr(`spot: warning: ${text}\n`);
  };
}

/** `{ok, command, ...result}`, plus `warnings` when there were some and the result has none of its own. */
export function okJson(command: string, result: object, warnings: readonly WarningEntry[] = []): string {
  const extra = warnings.length > 0 && !("warnings" in result) ? { warnings } : {};
  return JSON.stringify({ ok: true, command, ...result, ...extra });
}

export function printOk(command: string, result: object, warnings: readonly WarningEntry[] = []): void {
  writeOut(okJson(command, result, warnings) + "\n");
}

/** Any thrown value as a SpotError: ours as they are, anything else an INTERNAL bug with its stack. */
export function asSpotError(error: unknown): SpotError {
  return isSpotError(error) ? error : new SpotError(
    "INTERNAL",
    `Unexpected failure: ${error instanceof Error ? error.message : String(error)}`,
    {
      details: { stack: error instanceof Error ? error.stack?.split("\n").slice(0, 6) : undefined },
    },
  );
}

/** `{"ok":false,"error":{code,message,details}}`, plus `warnings` when there were some. */
export function errorJson(error: SpotError, warnings: readonly WarningEntry[] = []): string {
  return JSON.stringify({ ok: false, error: error.toJSON(), ...(warnings.length ? { warnings } : {}) });
}

/** Whether an error is shown as text for a person: stderr is a terminal and `--json` was not given. */
export function humanErrors(json: boolean, isTerminal = Deno.stderr.isTerminal()): boolean {
  return isTerminal && !json;
}

/**
 * Prints the error and returns its exit code, in the style asked for: one JSON line on stderr, or, for a
 * person at a terminal (`human`), the same error as readable lines (cli/render/error.ts).
 */
export async function printError(
  error: unknown,
  warnings: readonly WarningEntry[] = [],
  options: { human?: boolean; signalExit?: number } = {},
): Promise<number> {
  const spot = asSpotError(error);
  const style = await exitStyle((n) => Deno.env.get(n));
  const own = exitCodeFor(spot.code, spot.exitCode, style);
  // Interrupted by a signal: the exit the process will have (130, 143, 129) is the one a person reads.
  const code = options.signalExit === undefined ? own : signalExitFor(options.signalExit, own, style);
  if (options.human) {
    const { colorWanted, renderError } = await lazy<typeof import("./render/error.ts")>(
      "./render/error.ts",
      import.meta.url,
    );
    writeErr(renderError(spot.toJSON(), { exitCode: code, color: colorWanted((n) => Deno.env.get(n)) }));
  } else writeErr(errorJson(spot, warnings) + "\n");
  return code;
}
