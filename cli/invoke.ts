/**
 * Runs one verb the way every command does: a context, an audit line, the
 * interrupt signals when the verb can be interrupted, the progress line on a
 * terminal, and exactly one JSON object out. The exit code of the last
 * command is kept for `main`.
 */
import { createContext } from "../config/context.ts";
import { audited } from "../lifecycle/audit.ts";
import type { SpotContext } from "../store/context.ts";
import { listenForInterrupts, SIGNAL_EXIT } from "./interrupt.ts";
import { printError, printOk, printWarning, writeErr, writeOut } from "./output.ts";
import { createProgressLine } from "./progress_line.ts";
import { timed } from "../base/timings.ts";

type Args = Record<string, unknown>;

export class Invocation {
  exitCode = 0;

  /** A verb with context, audit, interruption handling and JSON output. */
  async verb(
    name: string,
    args: Args,
    fn: (ctx: SpotContext) => Promise<object>,
    options: { interruptible?: boolean; loadConfig?: boolean; readOnly?: boolean } = {},
  ): Promise<void> {
    const interrupts = options.interruptible ? listenForInterrupts() : null;
    const progress = interrupts && Deno.stderr.isTerminal() ? createProgressLine(writeErr) : undefined;
    try {
      const ctx = await timed("context (paths, config)", () =>
        createContext({
          signal: interrupts?.signal,
          progress: progress?.update,
          warn: printWarning,
          loadConfig: options.loadConfig,
          readOnly: options.readOnly,
        }));
      const result = await timed(
        `verb ${name} (whole, children included)`,
        () => audited(ctx, name, args, () => fn(ctx)),
      );
      progress?.stop();
      printOk(name, result);
    } catch (error) {
      progress?.stop();
      this.exitCode = printError(error);
    } finally {
      interrupts?.close();
    }
    const caught = interrupts?.caught();
    if (caught) this.exitCode = SIGNAL_EXIT[caught];
  }

  /** A verb whose output is text, not JSON (`report --format parent`); errors stay JSON. */
  async text(
    name: string,
    args: Args,
    fn: (ctx: SpotContext) => Promise<string>,
    options: { readOnly?: boolean } = {},
  ): Promise<void> {
    try {
      const ctx = await createContext({ warn: printWarning, readOnly: options.readOnly });
      writeOut(await audited(ctx, name, args, () => fn(ctx)));
    } catch (error) {
      this.exitCode = printError(error);
    }
  }

  /** A table for a person at a terminal, the one JSON object for anything else. */
  async humanOrJson<T extends object>(
    name: string,
    args: Args,
    fn: (ctx: SpotContext) => Promise<T>,
    render: (result: T) => string,
    options: { readOnly?: boolean } = {},
  ): Promise<void> {
    if (!Deno.stdout.isTerminal()) return await this.verb(name, args, fn, options);
    await this.text(name, args, async (ctx) => render(await fn(ctx)), options);
  }

  /** Config verbs read the file themselves, so `path` and `validate` work when it is broken. */
  async config(
    name: string,
    fn: (env: (n: string) => string | undefined, warn: (text: string) => void) => Promise<object>,
  ): Promise<void> {
    try {
      printOk(`config ${name}`, await fn((n) => Deno.env.get(n), printWarning));
    } catch (error) {
      this.exitCode = printError(error);
    }
  }
}
