/**
 * Trae CLI (`traecli --json --yolo … -`), logged in by OAuth: the prompt on
 * stdin (the `-` marker last), Bash left out of the allowed tools, and a JSON
 * array of messages at the end whose last assistant content is the answer.
 * Built from the seed's argv; not installable here.
 */
import type { CliRecord } from "./record.ts";
import { dotDir, noSettings, SESSIONS_IN_PRIVATE_HOME } from "./record.ts";
import { homeEnv, tmpDirFile, withKey } from "../plan_util.ts";
import type { LaunchPlan, LaunchSpec } from "../types.ts";
import { lazy } from "../../base/lazy.ts";

const stream = () =>
  lazy<typeof import("../streams/json_result.ts")>("../streams/json_result.ts", import.meta.url);

export const traeCli: CliRecord = {
  name: "trae",
  title: "Trae CLI",
  defaultBinary: "traecli",
  detect: { versionArgs: ["--version"], candidateDirs: [".trae/bin", ".local/bin"] },
  install: 'sh -c "$(curl -fsSL https://trae.cn/trae-cli/install_v2.sh)"',
  // --yolo approves every tool
  selfReviewReadOnly: "nobody",
  sessions: SESSIONS_IN_PRIVATE_HOME,
  settings: noSettings("traecli"),
  network: { takesBaseUrl: false, hosts: ["trae.ai:443", "api.trae.ai:443"] },
  homeFiles: [dotDir(".trae", ["trae_cli.yaml"])],
  profiles: { "trae-cli": { adapter: "trae", provider: "trae", model: "trae-default", costTier: "premium" } },
  listed: 4,
  plan,
  reader: async () => {
    const { parseJsonResultLine, finishJsonResult } = await stream();
    return { parseLine: parseJsonResultLine, finish: finishJsonResult };
  },
};

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
