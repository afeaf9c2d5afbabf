/**
 * The replay worker (`replay/spot-replay`), built into spot: a scripted stand-in for pi that plays an episode
 * file (the profile's `model`) and speaks pi's stream. It backs the demo and the tests.
 */
import { fromFileUrl } from "../../base/path.ts";
import type { CliRecord } from "./record.ts";
import { noSettings } from "./record.ts";

/** Found on PATH when spot runs from a bundle that has no source tree beside it. */
const FALLBACK_BINARY = "spot-replay";

function shimPath(): string {
  const url = new URL("../../replay/spot-replay", import.meta.url);
  return url.protocol === "file:" ? fromFileUrl(url) : FALLBACK_BINARY;
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
};
