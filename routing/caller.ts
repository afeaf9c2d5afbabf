/** Who is delegating: the parent agent named by env, a WorkBuddy shell, or a person at a CLI. */
import type { Caller } from "../schemas/run_state.ts";
import type { EnvReader } from "../store/paths.ts";

const KNOWN: ReadonlySet<string> = new Set([
  "trae",
  "codex",
  "claude-code",
  "cursor",
  "pi-recursive",
  "workbuddy",
  "cli",
]);
const ALIASES: Record<string, Caller> = {
  claude: "claude-code",
  claudecode: "claude-code",
  pi: "pi-recursive",
};

export function detectCaller(env: EnvReader): Caller {
  // An empty variable counts as unset, as it does in a shell.
  const named = (env("PARENT_AGENT")?.trim() || env("PI_WORKER_CALLER")?.trim())?.toLowerCase();
  if (named) {
    if (KNOWN.has(named)) return named as Caller;
    return Object.hasOwn(ALIASES, named) ? ALIASES[named] : "unknown";
  }
  if (env("WORKBUDDY") || env("WORKBUDDY_AGENT")) return "workbuddy";
  return "cli";
}
