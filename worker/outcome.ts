/** A worker turn's outcome: built here when spot ends it, judged by the adapter when the worker exits. */
import { finishIdle } from "../adapters/streams/finish.ts";
import type { ParseState, WorkerAdapter, WorkerFailure, WorkerOutcome } from "../adapters/types.ts";
import type { ProcessResult } from "../sandbox/spawn.ts";
import type { StepMessage } from "../steps/protocol.ts";

export type ExitMessage = Extract<StepMessage, { t: "exit" }>;

export function failure(
  code: WorkerFailure["code"],
  cls: WorkerFailure["class"],
  message: string,
): WorkerOutcome {
  return {
    ok: false,
    failure: { code, class: cls, message },
    usage: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
    costUsd: 0,
  };
}

export interface TurnEnd {
  /** The worker step's `exit` message; null when the step ended without one. */
  exit: ExitMessage | null;
  /** The worker step itself. */
  step: ProcessResult;
  /** The user interrupted spot while the turn ran. */
  aborted: boolean;
  idleSeconds: number;
}

/** The adapter decides from the stream; spot decides only what the stream cannot say. */
export function judgeTurn(adapter: WorkerAdapter, parse: ParseState, end: TurnEnd): WorkerOutcome {
  const finished = end.exit;
  if (!finished) {
    if (end.step.cancelled) return failure("cancelled", "permanent", "The worker was interrupted");
    return failure(
      "cli_crash",
      "transient",
      `The worker step ended without a result: ${end.step.stderr.slice(-500) || `exit ${end.step.exitCode}`}`,
    );
  }
  if (finished.idle) {
    const outcome = adapter.finish({ ...finished, timedOut: false, cancelled: false }, parse);
    return finishIdle(outcome, parse, end.idleSeconds);
  }
  if (finished.spawnError) {
    return failure("config", "blocking", `Cannot start the worker: ${finished.spawnError}`);
  }
  return adapter.finish(
    {
      exitCode: finished.exitCode,
      signal: finished.signal,
      timedOut: finished.timedOut,
      cancelled: finished.cancelled || end.aborted,
      stderrTail: finished.stderrTail,
    },
    parse,
  );
}
