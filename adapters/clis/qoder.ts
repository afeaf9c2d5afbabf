/**
 * Qoder CLI (`qodercli -p --output-format stream-json`; the CN build is
 * `qoderclicn`). Without `-p` it opens its TUI and hangs, so print mode is
 * always on. It logs in with a personal access token from the environment,
 * reports token counts as 0 and bills in credits (`total_credits`). The flags
 * are checked against qodercli 1.1.52 from npm, which runs models only through
 * Qoder's own service, so no local run gets past its login wall
 * (docs/worker-adapters.md#qoder).
 */
import type { CliRecord } from "./record.ts";
import type { StreamReader } from "./record.ts";
import { dotDir, SESSIONS_IN_PRIVATE_HOME } from "./record.ts";
import { homeEnv, tmpDirFile, withKey } from "../plan_util.ts";
import { settingFlags } from "../capabilities/routes.ts";
import type { LaunchPlan, LaunchSpec, ParseState, WorkerExit, WorkerOutcome } from "../types.ts";
import { lazy } from "../../base/lazy.ts";

const stream = () => lazy<typeof import("../streams/claude.ts")>("../streams/claude.ts", import.meta.url);

export const qoderCli: CliRecord = {
  name: "qoder",
  title: "Qoder CLI",
  defaultBinary: "qodercli",
  detect: {
    versionArgs: ["--version"],
    // The international build from npm is qodercli; the CN build installs as qoderclicn.
    alsoNamed: ["qoderclicn"],
    candidateDirs: [".qoder/bin", ".local/bin"],
  },
  install: "npm install -g @qoder-ai/qodercli (the CN build: curl -fsSL https://qoder.com.cn/install | bash)",
  // --allowed-tools only pre-approves; its init event still lists Bash under bypassPermissions
  selfReviewReadOnly: "nobody",
  sessions: SESSIONS_IN_PRIVATE_HOME,
  settings: {
    reasoningEffort: { via: "flag", name: "--reasoning-effort" },
    maxContextSize: { via: "flag", name: "--context-window" },
    maxTurns: { via: "flag", name: "--max-turns" },
  },
  network: { takesBaseUrl: false, hosts: ["qoder.com:443", "api.qoder.com:443", "openapi.qoder.sh:443"] },
  homeFiles: [dotDir(".qoder", ["settings.json"])],
  profiles: {
    // "free" is a price alias: it becomes the cheapest model the account can reach when the run is prepared.
    "qoder-cli": {
      adapter: "qoder",
      provider: "qoder",
      model: "free",
      apiKeyEnv: "QODERCN_PERSONAL_ACCESS_TOKEN",
      costTier: "free",
    },
  },
  listed: 5,
  plan,
  reader: async (): Promise<StreamReader> => {
    const claude = await stream();
    return {
      parseLine: (line: string, state: ParseState) =>
        claude.parseClaudeLine(line, state, { inputIncludesCache: false, credits: true }),
      finish: (exit: WorkerExit, state: ParseState) => finish(claude, exit, state),
    };
  },
};

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
      ...settingFlags(qoderCli.settings, spec.profile),
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
function finish(
  claude: typeof import("../streams/claude.ts"),
  exit: WorkerExit,
  state: ParseState,
): WorkerOutcome {
  const outcome = claude.finishClaude(exit, state);
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
