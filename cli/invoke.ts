/**
 * Runs one verb the way every command does: a context, an audit line, the
 * interrupt signals when the verb can be interrupted, the progress line on a
 * terminal, and exactly one JSON object out (with the command's warnings in
 * it). The exit code of the last command is kept for `main`.
 */
import { createContext } from "../config/context.ts";
import { audited } from "../lifecycle/audit.ts";
import type { SpotContext } from "../store/context.ts";
import { listenForInterrupts, SIGNAL_EXIT } from "./interrupt.ts";
import { humanErrors, printError, printOk, Warnings, writeErr, writeOut } from "./output.ts";
import { createProgressLine } from "./progress_line.ts";
import { timed } from "../base/timings.ts";
import { exitStyle, signalExitFor } from "./exit_codes.ts";
import { colorWanted } from "./render/style.ts";

type Args = Record<string, unknown>;

/** A verb's human view: the result in, the text a person reads out (cli/render/); pure, loaded when used. */
export type Render<T> = (result: T, options: { color: boolean }) => string | Promise<string>;

/** Whether a verb that has a human view shows it: on a terminal, unless `--json` asks for the JSON. */
export function wantsHuman(args: Args, isTerminal = Deno.stdout.isTerminal()): boolean {
  return isTerminal && args.json !== true;
}

export class Invocation {
  exitCode = 0;
  /** This command's warnings (legacy config keys): inside its JSON, and on a terminal's stderr. */
  readonly warnings = new Warnings();
  /** `--json` was given: the JSON even on a terminal, for an error too. */
  json = false;

  async fail(error: unknown, signalExit?: number): Promise<void> {
    this.exitCode = await printError(error, this.warnings.list, {
      human: humanErrors(this.json),
      signalExit,
    });
  }

  /** A verb with context, audit, interruption handling and JSON output (or, given `render`, its human view). */
  async verb<T extends object>(
    name: string,
    args: Args,
    fn: (ctx: SpotContext) => Promise<T>,
    options: {
      interruptible?: boolean;
      loadConfig?: boolean;
      /** Only looks: creates none of spot's places (SpotContext.readOnly). */
      readOnly?: boolean;
      render?: Render<T>;
      /** Text a parent reads instead of the JSON (an agent's poll line); undefined keeps the JSON. */
      text?: (result: T) => string | undefined;
    } = {},
  ): Promise<void> {
    if (args.json === true) this.json = true;
    const interrupts = options.interruptible ? listenForInterrupts() : null;
    const progress = interrupts && Deno.stderr.isTerminal()
      ? createProgressLine(writeErr, { columns: terminalColumns(), initial: `${name}: starting` })
      : undefined;
    try {
      const ctx = await timed("context (paths, config)", () =>
        createContext({
          signal: interrupts?.signal,
          progress: progress?.update,
          warn: this.warnings.add,
          loadConfig: options.loadConfig,
          readOnly: options.readOnly,
        }));
      const result = await timed(
        `verb ${name} (whole, children included)`,
        () => audited(ctx, name, args, () => fn(ctx)),
      );
      progress?.stop();
      const text = options.text?.(result);
      if (options.render) {
        writeOut(await options.render(result, { color: colorWanted((n) => Deno.env.get(n)) }));
      } else if (text !== undefined) writeOut(withNewline(text));
      else printOk(name, result, this.warnings.list);
    } catch (error) {
      progress?.stop();
      const caught = interrupts?.caught();
      await this.fail(error, caught ? SIGNAL_EXIT[caught] : undefined);
    } finally {
      interrupts?.close();
    }
    const caught = interrupts?.caught();
    if (caught) {
      this.exitCode = signalExitFor(
        SIGNAL_EXIT[caught],
        this.exitCode,
        await exitStyle((n) => Deno.env.get(n)),
      );
    }
  }

  /** A verb without a context (the config verbs read the file themselves, so they work when it is broken). */
  async bare<T extends object>(
    name: string,
    fn: () => Promise<T>,
    text?: (result: T) => string | undefined,
  ): Promise<void> {
    try {
      const result = await fn();
      const said = text?.(result);
      if (said !== undefined) writeOut(withNewline(said));
      else printOk(name, result, this.warnings.list);
    } catch (error) {
      await this.fail(error);
    }
  }
}

/** Text as printed: its own last newline, or one added (nothing for no text). */
function withNewline(text: string): string {
  return text === "" || text.endsWith("\n") ? text : `${text}\n`;
}

/** The terminal's width, so the progress line never wraps (a wrapped line cannot be redrawn in place). */
function terminalColumns(): number | undefined {
  try {
    return Deno.consoleSize().columns;
  } catch {
    return undefined;
  }
}
