/** SIGINT, SIGTERM and SIGHUP abort the running verb; the process then exits 130, 143 or 129. */
import { interruptReason } from "../base/interrupt.ts";

export const SIGNAL_EXIT: Record<string, number> = { SIGINT: 130, SIGHUP: 129, SIGTERM: 143 };

export interface Interrupts {
  signal: AbortSignal;
  /** The first signal caught, or null. */
  caught(): string | null;
  /** Stops listening. */
  close(): void;
}

export function listenForInterrupts(): Interrupts {
  const controller = new AbortController();
  let caught: string | null = null;
  const handlers: [Deno.Signal, () => void][] = [];
  for (const sig of ["SIGINT", "SIGTERM", "SIGHUP"] as const) {
    const handler = () => {
      caught ??= sig;
      controller.abort(interruptReason(sig));
    };
    Deno.addSignalListener(sig, handler);
    handlers.push([sig, handler]);
  }
  return {
    signal: controller.signal,
    caught: () => caught,
    close: () => {
      for (const [sig, handler] of handlers) Deno.removeSignalListener(sig, handler);
    },
  };
}
