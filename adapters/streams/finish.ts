/**
 * The finish rule every stream adapter shares: the stream's own verdict
 * first, then what the process did. Exit codes only break ties (pi and qwen
 * exit 0 on provider errors, gemini exits 145 on a 401).
 */
import { classify } from "./classify.ts";
import type { ParseState, WorkerExit, WorkerFailure, WorkerOutcome } from "../types.ts";

export interface StreamVerdict {
  /** The stream ended with its success record (a result line, a completed turn, a final stop). */
  ok: boolean;
  /** Why the stream says it failed, when it did. */
  error?: string;
  /** The CLI always writes an end-of-run record, so a stream without one was cut short. */
  needsEnd: boolean;
}

/** A stderr tail that says more than "crashed" wins over a vague stream error. */
function sharpen(failure: WorkerFailure, stderrTail: string): WorkerFailure {
  if (failure.code !== "cli_crash" || stderrTail.trim() === "") return failure;
  const fromStderr = classify(stderrTail.trim().slice(-1000));
  return fromStderr.code === "cli_crash" ? failure : fromStderr;
}

export function finishStream(exit: WorkerExit, state: ParseState, verdict: StreamVerdict): WorkerOutcome {
  const spent = { usage: state.usage, costUsd: state.costUsd };
  const failed = (failure: WorkerFailure): WorkerOutcome => ({
    ok: false,
    failure: sharpen(failure, exit.stderrTail),
    ...spent,
  });
  const tail = exit.stderrTail.trim() === "" ? "" : `: ${exit.stderrTail.trim().slice(-500)}`;
  const how = exit.signal !== null
    ? `was killed by signal "${exit.signal}"`
    : `exited with code ${exit.exitCode}`;

  if (exit.cancelled) {
    return failed({ code: "cancelled", class: "permanent", message: "Worker was cancelled" });
  }
  if (exit.timedOut) return failed({ code: "timeout", class: "transient", message: "Worker timed out" });
  if (state.failure) return failed(state.failure);
  if (state.tui) {
    return failed({
      code: "tui_fallback",
      class: "blocking",
      message: `Worker opened an interactive terminal UI instead of its headless stream${tail}`,
    });
  }
  if (!verdict.ok && verdict.error !== undefined) return failed(classify(verdict.error));
  const crashed = exit.exitCode !== 0 || exit.signal !== null;
  if (state.events === 0 && !crashed) {
    return failed({ code: "zero_output", class: "permanent", message: `Worker produced no events${tail}` });
  }
  if (crashed) return failed({ code: "cli_crash", class: "transient", message: `Worker ${how}${tail}` });
  if (verdict.needsEnd && !state.finished) {
    return failed({
      code: "cli_crash",
      class: "transient",
      message: `Worker ${how} without finishing its turn${tail}`,
    });
  }
  if (!verdict.ok) {
    return failed({
      code: "cli_crash",
      class: "permanent",
      message: `Worker stopped without success${tail}`,
    });
  }
  return { ok: true, text: state.lastText, ...spent };
}

/**
 * The outcome of a worker the watchdog killed for silence: a question or
 * permission prompt it was waiting on makes it ask_hang (a setup problem that
 * a retry will not fix); otherwise it is no_progress.
 */
export function finishIdle(outcome: WorkerOutcome, state: ParseState, idleSeconds: number): WorkerOutcome {
  const failure: WorkerFailure = state.pendingAsk
    ? {
      code: "ask_hang",
      class: "blocking",
      message: `The worker waited ${idleSeconds}s on a prompt nobody can answer: ${state.pendingAsk}`,
    }
    : {
      code: "no_progress",
      class: "transient",
      message: `The worker showed no progress (no event, no token, no file change) for ${idleSeconds}s`,
    };
  return { ...outcome, ok: false, failure };
}
