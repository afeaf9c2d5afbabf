/**
 * Which workers can take a follow-up turn (`spot agent send`): only a CLI
 * that keeps its session where the next attempt finds it can resume one.
 * spot gives every attempt a fresh private HOME, so a CLI that stores its
 * sessions there, or keeps none, starts the next turn with no memory.
 */

export type SessionSupport = { resumes: true } | { resumes: false; why: string };

/** pi's sessions live in the run directory (`--session-dir`); replay simulates the same. */
const RESUMES = new Set(["pi", "replay"]);

const IN_PRIVATE_HOME = "spot has no way to resume its sessions: whatever it keeps lives in the " +
  "private HOME spot gives each attempt, which the next attempt does not get";

const WHY_NOT: Record<string, string> = {
  claude: "runs with --no-session-persistence, so no session outlives its turn",
  codex: "runs `codex exec --ephemeral`, so no session outlives its turn",
};

export function sessionSupport(adapter: string): SessionSupport {
  if (RESUMES.has(adapter)) return { resumes: true };
  return { resumes: false, why: WHY_NOT[adapter] ?? IN_PRIVATE_HOME };
}
