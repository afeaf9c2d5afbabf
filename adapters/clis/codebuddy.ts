/**
 * CodeBuddy Code (`codebuddy -p --output-format stream-json`), a Claude-shaped
 * CLI from `@tencent-ai/codebuddy-code` that logs in by OAuth. A run that is
 * not logged in exits 0 having done nothing, so an empty successful turn is
 * classified as auth. Built from its documented print mode; not installed here.
 */
import type { CliRecord } from "./record.ts";
import type { StreamReader } from "./record.ts";
import { dotDir, noSettings, SESSIONS_IN_PRIVATE_HOME } from "./record.ts";
import { homeEnv, tmpDirFile, withKey } from "../plan_util.ts";
import type { LaunchPlan, LaunchSpec, ParseState, WorkerExit, WorkerOutcome } from "../types.ts";
import { lazy } from "../../base/lazy.ts";

const stream = () => lazy<typeof import("../streams/claude.ts")>("../streams/claude.ts", import.meta.url);

export const codebuddyCli: CliRecord = {
  name: "codebuddy",
  title: "CodeBuddy Code",
  defaultBinary: "codebuddy",
  detect: { versionArgs: ["--version"], candidateDirs: [".npm-global/bin", ".local/bin"] },
  install: "npm install -g @tencent-ai/codebuddy-code",
  // a Claude Code fork: the same permission rule in headless mode
  selfReviewReadOnly: "cli",
  webTools: ["WebFetch", "WebSearch"],
  sessions: SESSIONS_IN_PRIVATE_HOME,
  settings: noSettings("codebuddy"),
  network: {
    takesBaseUrl: false,
    hosts: ["codebuddy.ai:443", "www.codebuddy.ai:443", "copilot.tencent.com:443"],
  },
  homeFiles: [dotDir(".codebuddy", ["settings.json"])],
  profiles: {
    "codebuddy-cli": { adapter: "codebuddy", provider: "codebuddy", model: "deepseek-v4.1-flash" },
  },
  listed: 6,
  plan,
  reader: async (): Promise<StreamReader> => {
    const claude = await stream();
    return {
      parseLine: (line: string, state: ParseState) => parseLine(claude, line, state),
      finish: (exit: WorkerExit, state: ParseState) => finish(claude, exit, state),
    };
  },
};

const EDIT_TOOLS = "Read,Glob,Grep,Edit,MultiEdit,Write";
const READ_TOOLS = "Read,Glob,Grep";
const WEB_TOOLS = codebuddyCli.webTools ?? [];

function plan(spec: LaunchSpec): LaunchPlan {
  const readOnly = spec.phase === "self-review";
  return {
    argv: [
      spec.binary,
      ...["-p", "--output-format", "stream-json", "--verbose", "--model", spec.profile.model],
      ...["--permission-mode", readOnly ? "default" : "acceptEdits"],
      ...[
        "--allowedTools",
        [readOnly ? READ_TOOLS : EDIT_TOOLS, ...(spec.web ? WEB_TOOLS : [])].join(","),
        "--disallowedTools",
        ["Bash", ...(spec.web ? [] : WEB_TOOLS)].join(","),
      ],
    ],
    env: withKey({ ...homeEnv(spec) }, spec, ["CODEBUDDY_API_KEY"]),
    files: [tmpDirFile(spec)],
    stdinFile: spec.promptFile,
  };
}

type ClaudeStream = typeof import("../streams/claude.ts");

function parseLine(claude: ClaudeStream, line: string, state: ParseState) {
  const events = claude.parseClaudeLine(line, state, { inputIncludesCache: false });
  if (events.some((e) => e.type === "worker_tool_call" || e.type === "worker_usage")) {
    state.scratch.worked = true;
  }
  return events;
}

/** OAuth state is not ours to see: a "successful" turn with no tool, no tokens and no text is a login wall. */
function finish(claude: ClaudeStream, exit: WorkerExit, state: ParseState): WorkerOutcome {
  const outcome = claude.finishClaude(exit, state);
  if (!outcome.ok || state.scratch.worked || (state.lastText ?? "").trim() !== "") return outcome;
  return {
    ...outcome,
    ok: false,
    failure: {
      code: "auth",
      class: "blocking",
      message:
        "CodeBuddy finished without doing anything: it is probably not logged in (run `codebuddy` and /login)",
    },
  };
}
