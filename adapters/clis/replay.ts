/**
 * The replay worker (`replay/spot-replay`): a scripted stand-in for pi that
 * speaks pi's json stream, so it shares pi's parser and finish rule. The
 * profile's `model` is the absolute path of the episode file.
 */
import { fromFileUrl } from "../../base/path.ts";
import type { CliRecord } from "./record.ts";
import { noSettings } from "./record.ts";
import { join } from "../../base/path.ts";
import type { DenoProgram, LaunchPlan, LaunchSpec } from "../types.ts";
import { lazy } from "../../base/lazy.ts";

const stream = () => lazy<typeof import("../streams/pi.ts")>("../streams/pi.ts", import.meta.url);

/** Found on PATH when spot runs from a bundle that has no source tree beside it. */
const FALLBACK_BINARY = "spot-replay";

function shimPath(): string {
  const url = new URL("../../replay/spot-replay", import.meta.url);
  return url.protocol === "file:" ? fromFileUrl(url) : FALLBACK_BINARY;
}

/** The replay worker's own modules, which the shim runs with Deno (none when spot runs from a bundle). */
export function replayProgram(): DenoProgram | null {
  const at = (path: string) => new URL(`../../replay/${path}`, import.meta.url);
  if (at("replay_worker.ts").protocol !== "file:") return null;
  return { entry: fromFileUrl(at("replay_worker.ts")), modules: [fromFileUrl(at("episode.ts"))] };
}

export const replayCli: CliRecord = {
  name: "replay",
  title: "the replay worker",
  defaultBinary: shimPath(),
  detect: {},
  install: "built into spot",
  builtIn: true,
  // the scripted worker does whatever its episode says
  selfReviewReadOnly: "nobody",
  // it simulates pi's sessions in the run directory
  sessions: { resumes: true },
  settings: noSettings("the replay worker"),
  network: { offline: true },
  homeFiles: [],
  // Always present, even when the user's file lists other profiles. Its model is the episode file.
  profiles: {
    replay: { adapter: "replay", provider: "replay", model: "", capabilities: ["text", "code", "tool-use"] },
  },
  listed: 13,
  plan,
  reader: async () => {
    const { parsePiLine, finishPi } = await stream();
    return { parseLine: parsePiLine, finish: finishPi };
  },
};

function plan(spec: LaunchSpec): LaunchPlan {
  const program = replayProgram();
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
    ...(program && spec.binary === shimPath() ? { denoPrograms: [program] } : {}),
  };
}
