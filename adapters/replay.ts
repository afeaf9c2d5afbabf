/**
 * The replay worker (`replay/spot-replay`): a scripted stand-in for pi that
 * speaks pi's json stream, so it shares pi's parser and finish rule. The
 * profile's `model` is the absolute path of the episode file.
 */
import { join } from "../base/path.ts";
import { finishPi, parsePiLine } from "./streams/pi.ts";
import type { LaunchPlan, LaunchSpec, WorkerAdapter } from "./types.ts";
import { replayCli } from "./clis/replay.ts";
import { defineAdapter } from "./clis/record.ts";

function plan(spec: LaunchSpec): LaunchPlan {
  // A resumed session plays the episode's follow-up lines, so a test can script the turn `agent send` starts.
  const phase = spec.resumeSession ? "follow-up" : spec.phase;
  return {
    argv: [
      spec.binary,
      ...["--episode", spec.profile.model, "--phase", phase],
      ...["--session-dir", join(spec.runDir, "replay-session")],
      ...(spec.resumeSession ? ["--session", spec.resumeSession] : []),
    ],
    // The shim runs the worker with this same deno, whatever PATH says.
    env: { ...spec.baseEnv, HOME: spec.homeDir, SPOT_DENO: Deno.execPath(), NO_COLOR: "1" },
    files: [],
    stdinFile: spec.promptFile,
  };
}

export const replayAdapter: WorkerAdapter = defineAdapter(replayCli, {
  plan,
  parseLine: parsePiLine,
  finish: finishPi,
});
