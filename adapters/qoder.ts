/**
 * Qoder CLI (`qodercli -p --output-format stream-json`; the CN build is
 * `qoderclicn`). Without `-p` it opens its TUI and hangs, so print mode is
 * always on. It logs in with a personal access token from the environment,
 * reports token counts as 0 and bills in credits. Built from the seed's argv
 * and Qoder's Claude-shaped print mode; not installable here.
 */
import { finishClaude, parseClaudeLine } from "./streams/claude.ts";
import { homeEnv, tmpDirFile, withKey } from "./plan_util.ts";
import { settingFlags } from "./settings.ts";
import type { DetectInfo, LaunchPlan, LaunchSpec, ParseState, WorkerAdapter } from "./types.ts";

const EDIT_TOOLS = "Read,Write,Grep,Glob,Edit,MultiEdit";
const READ_TOOLS = "Read,Grep,Glob";
/** Model names that mean "whatever the account defaults to": no --model flag then. */
const ACCOUNT_DEFAULT = new Set(["", "default", "auto"]);

function plan(spec: LaunchSpec): LaunchPlan {
  const env = withKey({ ...homeEnv(spec) }, spec, [
    "QODER_PERSONAL_ACCESS_TOKEN",
    "QODERCN_PERSONAL_ACCESS_TOKEN",
  ]);
  const { model } = spec.profile;
  return {
    argv: [
      spec.binary,
      ...["-p", "--output-format", "stream-json", "--yolo"],
      ...["--allowed-tools", spec.phase === "self-review" ? READ_TOOLS : EDIT_TOOLS],
      ...(ACCOUNT_DEFAULT.has(model) ? [] : ["--model", model]),
      ...settingFlags("qoder", spec.profile),
      // The prompt marker goes last: the CLI reads the prompt from stdin.
      "-",
    ],
    env,
    files: [tmpDirFile(spec)],
    stdinFile: spec.promptFile,
  };
}

export const QODER_DETECT: DetectInfo = {
  versionArgs: ["--version"],
  candidateDirs: [".qoder/bin", ".local/bin"],
};

export const qoderAdapter: WorkerAdapter = {
  name: "qoder",
  defaultBinary: "qodercli",
  // --allowed-tools only pre-approves; its init event still lists Bash under bypassPermissions
  selfReviewReadOnly: "nobody",
  detect: QODER_DETECT,
  plan,
  parseLine: (line: string, state: ParseState) => parseClaudeLine(line, state, { inputIncludesCache: false }),
  finish: finishClaude,
};
