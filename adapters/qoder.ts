/**
 * Qoder CLI (`qodercli -p --output-format stream-json`; the CN build is
 * `qoderclicn`). Without `-p` it opens its TUI and hangs, so print mode is
 * always on. It logs in with a personal access token from the environment,
 * reports token counts as 0 and bills in credits (`total_credits`). The flags
 * are checked against qodercli 1.1.52 from npm, which runs models only through
 * Qoder's own service, so no local run gets past its login wall
 * (docs/worker-adapters.md#qoder).
 */
import { finishClaude, parseClaudeLine } from "./streams/claude.ts";
import { homeEnv, tmpDirFile, withKey } from "./plan_util.ts";
import { settingFlags } from "./capabilities/settings.ts";
import type {
  LaunchPlan,
  LaunchSpec,
  ParseState,
  WorkerAdapter,
  WorkerExit,
  WorkerOutcome,
} from "./types.ts";
import { qoderCli } from "./clis/qoder.ts";
import { defineAdapter } from "./clis/record.ts";

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

/** qodercli 1.1.52 logs in through Qoder's service before any model call; unreachable, it dies with this. */
const NETWORK_ERROR = /NetworkAttemptError: [^\n]*/;

/** A login that cannot reach Qoder's service is a setup problem, not a crash worth retrying. */
function finish(exit: WorkerExit, state: ParseState): WorkerOutcome {
  const outcome = finishClaude(exit, state);
  const network = outcome.ok || state.finished ? null : NETWORK_ERROR.exec(exit.stderrTail);
  if (!network) return outcome;
  return {
    ...outcome,
    failure: {
      code: "config",
      class: "blocking",
      message: `Qoder could not reach its own service to log in (${network[0]}): ` +
        "its hosts must be reachable (egress allowlist), and only Qoder's service can run its models",
    },
  };
}

export const qoderAdapter: WorkerAdapter = defineAdapter(qoderCli, {
  plan,
  parseLine: (line: string, state: ParseState) =>
    parseClaudeLine(line, state, { inputIncludesCache: false, credits: true }),
  finish,
});
