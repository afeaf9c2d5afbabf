/**
 * Why a command's AbortSignal fired, when a signal did it: the CLI aborts with an AbortError that names the
 * signal (SIGINT for Ctrl-C), so what records the interruption (lifecycle/outcome.ts) says which one.
 */

/** The abort reason for an interrupt by `signal`: an AbortError, as any abort's, that carries the name. */
export function interruptReason(signal: string): DOMException {
  return Object.assign(new DOMException(`Interrupted by ${signal}`, "AbortError"), { signal });
}

/** The signal that aborted `abort`, or null when it was aborted some other way (an MCP client's cancel). */
export function interruptSignal(abort: AbortSignal | undefined): string | null {
  const named = (abort?.reason as { signal?: unknown } | undefined)?.signal;
  return typeof named === "string" ? named : null;
}
