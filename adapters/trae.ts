/**
 * Trae CLI (`traecli --json --yolo … -`), logged in by OAuth: the prompt on
 * stdin (the `-` marker last), Bash left out of the allowed tools, and a JSON
 * array of messages at the end whose last assistant content is the answer.
 * Built from the seed's argv; not installable here.
 */
import { finishJsonResult, parseJsonResultLine } from "./streams/json_result.ts";
import { homeEnv, tmpDirFile, withKey } from "./plan_util.ts";
import type { LaunchPlan, LaunchSpec, WorkerAdapter } from "./types.ts";
import { traeCli } from "./clis/trae.ts";
import { defineAdapter } from "./clis/record.ts";

const EDIT_TOOLS = "Read,Grep,Glob,Edit,MultiEdit,Write";
const READ_TOOLS = "Read,Grep,Glob";

function plan(spec: LaunchSpec): LaunchPlan {
  return {
    argv: [
      spec.binary,
      ...["--json", "--yolo", "--allowed-tool", spec.phase === "self-review" ? READ_TOOLS : EDIT_TOOLS],
      ...["--session-id", `${spec.runId}-${spec.phase}`],
      "-",
    ],
    env: withKey({ ...homeEnv(spec) }, spec, []),
    files: [tmpDirFile(spec)],
    stdinFile: spec.promptFile,
  };
}

export const traeAdapter: WorkerAdapter = defineAdapter(traeCli, {
  plan,
  parseLine: parseJsonResultLine,
  finish: finishJsonResult,
});
