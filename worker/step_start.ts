/**
 * How a worker step starts: what it may run, read and write, and its environment. Under an OS sandbox that
 * is known before the launch is planned (the step runs the sandbox's program, with an empty environment:
 * the worker's own goes in through the sandbox), so the step is started first and its Deno starts while
 * spot plans the launch (binary, home, sandbox policy; docs/performance.md). `attempt` gives a started step
 * the work only when the planned launch needs exactly the start it got (step_runner.ts `runStarted`).
 */
import type { RunState } from "../schemas/run_state.ts";
import type { SpotContext } from "../store/context.ts";
import { killProgram, type StartedStep, startStep, type StepStart } from "../isolation/step_runner.ts";
import { sandboxForRun } from "../isolation/run_sandbox.ts";

/** The start a launch of `program` with the step environment `env` needs. */
export function workerStart(
  ctx: SpotContext,
  state: RunState,
  launch: { program: string; env: Record<string, string> },
): StepStart {
  const runDir = ctx.store.dir(state.runId);
  const killBinary = killProgram(ctx);
  return {
    kind: "worker",
    runId: state.runId,
    policy: {
      read: [state.worktreePath, runDir],
      write: [state.worktreePath, runDir],
      run: [launch.program, ...(killBinary ? [killBinary] : [])],
      env: Object.keys(launch.env),
      net: [],
    },
    env: launch.env,
  };
}

/** A worker step started ahead of its launch, under an OS sandbox; null otherwise (or when it is off). */
export async function startWorkerStep(ctx: SpotContext, state: RunState): Promise<StartedStep | null> {
  try {
    const box = await sandboxForRun(ctx, state);
    if (box.backend.level !== "os") return null;
    return await startStep(ctx, workerStart(ctx, state, { program: box.backend.program([]), env: {} }));
  } catch {
    // The sandbox's own error comes when the launch is planned, as it did before.
    return null;
  }
}
