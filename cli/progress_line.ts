/**
 * The one-line progress display a person sees on a terminal during `run`, `verify` and the other long verbs:
 * the latest step (for a worker turn, its current tool and file) plus a ticking elapsed time, redrawn in
 * place. The text can carry what a worker wrote (a tool's name, a path), so control characters are dropped
 * before it reaches the terminal, and the line is cut to the terminal's width so it never wraps.
 */
import { stripTerminal } from "../store/worker_log.ts";

/** Redraws this often, so a silent worker still shows the clock moving. */
export const TICK_MS = 500;

export interface ProgressLine {
  update(text: string): void;
  stop(): void;
}

export interface ProgressOptions {
  now?: () => number;
  /** The terminal's width; the line is cut to one column less, so the cursor never wraps. */
  columns?: number;
  /** What it says before the verb's first step is known (`verify: starting`). */
  initial?: string;
}

/** Pure: the line for `text` after `elapsedMs`, at most `columns - 1` characters. */
export function progressText(text: string, elapsedMs: number, columns?: number): string {
  const clock = ` (${(elapsedMs / 1000).toFixed(1)}s)`;
  let body = `[spot] ${stripTerminal(text).replace(/\s+/g, " ")}`;
  const room = columns ? columns - 1 - clock.length : Infinity;
  if (body.length > room) body = room > 1 ? body.slice(0, room - 1) + "…" : "";
  return body + clock;
}

export function createProgressLine(
  write: (text: string) => void,
  options: ProgressOptions = {},
): ProgressLine {
  const now = options.now ?? Date.now;
  const started = now();
  let text = options.initial ?? "starting";
  const draw = () => write(`\r\x1b[K${progressText(text, now() - started, options.columns)}`);
  const timer = setInterval(draw, TICK_MS);
  draw();
  return {
    update(next: string) {
      text = next;
      draw();
    },
    stop() {
      clearInterval(timer);
      write("\r\x1b[K");
    },
  };
}
