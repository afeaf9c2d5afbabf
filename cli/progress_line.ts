/**
 * The one-line progress display a person sees on a terminal during `run` and
 * `verify`: the latest step plus a ticking elapsed time, redrawn in place.
 */

/** Redraws this often, so a silent worker still shows the clock moving. */
export const TICK_MS = 500;

export interface ProgressLine {
  update(text: string): void;
  stop(): void;
}

export function createProgressLine(
  write: (text: string) => void,
  now: () => number = Date.now,
): ProgressLine {
  const started = now();
  let text = "starting";
  const draw = () => write(`\r\x1b[K[spot] ${text} (${((now() - started) / 1000).toFixed(1)}s)`);
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
