/**
 * CodeBuddy Code (`codebuddy -p --output-format stream-json`), a Claude-shaped
 * CLI from `@tencent-ai/codebuddy-code` that logs in by OAuth. A run that is
 * not logged in exits 0 having done nothing, so an empty successful turn is
 * classified as auth. Built from its documented print mode; not installed here.
 */
import { finishClaude, parseClaudeLine } from "./streams/claude.ts";
import { homeEnv, tmpDirFile, withKey } from "./plan_util.ts";
import type {
  LaunchPlan,
  LaunchSpec,
  ParseState,
  WorkerAdapter,
  WorkerExit,
  WorkerOutcome,
} from "./types.ts";
import { codebuddyCli } from "./clis/codebuddy.ts";
import { defineAdapter } from "./clis/record.ts";

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

function parseLine(line: string, state: ParseState) {
  const events = parseClaudeLine(line, state, { inputIncludesCache: false });
  if (events.some((e) => e.type === "worker_tool_call" || e.type === "worker_usage")) {
    state.scratch.worked = true;
  }
  return events;
}

/** OAuth state is not ours to see: a "successful" turn with no tool, no tokens and no text is a login wall. */
function finish(exit: WorkerExit, state: ParseState): WorkerOutcome {
  const outcome = finishClaude(exit, state);
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

export const codebuddyAdapter: WorkerAdapter = defineAdapter(codebuddyCli, {
  plan,
  parseLine,
  finish,
});
