/**
 * The replay worker (`replay/spot-replay`): a scripted stand-in for pi that
 * speaks pi's json stream, so it shares pi's parser and finish rule. The
 * profile's `model` is the absolute path of the episode file.
 */
import { fromFileUrl, join } from "../base/path.ts";
import { finishPi, parsePiLine } from "./streams/pi.ts";
import type { LaunchPlan, LaunchSpec, WorkerAdapter } from "./types.ts";

/** Found on PATH when spot runs from a bundle that has no source tree beside it. */
const FALLBACK_BINARY = "spot-replay";

function shimPath(): string {
  const url = new URL("../replay/spot-replay", import.meta.url);
  return url.protocol === "file:" ? fromFileUrl(url) : FALLBACK_BINARY;
}

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

export const replayAdapter: WorkerAdapter = {
  name: "replay",
  defaultBinary: shimPath(),
  // the scripted worker does whatever its episode says
  selfReviewReadOnly: "nobody",
  plan,
  parseLine: parsePiLine,
  finish: finishPi,
};
