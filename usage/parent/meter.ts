/**
 * The parent meter: a snapshot of the delegating agent's cumulative session
 * usage, read from the files the agent itself keeps. Codex and Claude Code
 * are metered; every other parent gets `available: false` with the reason.
 * A missing, malformed or ambiguous thread id is an error, never a guess.
 */
import { basename, dirname, join } from "../../base/path.ts";
import { SpotError } from "../../errors.ts";
import { readClaudeSession } from "./claude_session.ts";
import { readCodexRollout } from "./codex_rollout.ts";
import type { AvailableSnapshot, MeteredAgent, ParentSnapshot } from "./usage.ts";
import { parentTotal } from "./usage.ts";
import { checkThreadId, findJsonl, findSessionFile } from "./session_find.ts";

export type EnvReader = (name: string) => string | undefined;

export interface MeterOptions {
  env: EnvReader;
  now: () => string;
  /** How long a session file that does not exist yet is waited for (default 5 s; see findSessionFile). */
  settleMs?: number;
}

const SETTLE_MS = 5_000;

/** Why each parent spot cannot meter gets no number (the seed's table). */
const UNMETERED: Record<string, string> = {
  trae: "Trae usage metering is not implemented; set PARENT_AGENT=codex or claude-code for numbers",
  cursor: "Cursor usage metering is not implemented; set PARENT_AGENT=codex or claude-code for numbers",
  "pi-recursive": "a Pi delegating to a Pi: the usage stays on the outer Pi, which spot does not meter",
  workbuddy: "WorkBuddy keeps no session usage spot can read",
  cli: "no parent session to meter (caller cli); set PARENT_AGENT and the parent's thread id to measure one",
  unknown: "PARENT_AGENT names an agent spot cannot meter",
};

const envValue = (env: EnvReader, name: string) => env(name)?.trim() || undefined;

function home(env: EnvReader, override: string, dir: string): string {
  const set = envValue(env, override);
  if (set) return set;
  const h = envValue(env, "HOME");
  if (!h) {
    throw new SpotError(
      "PARENT_METER_FAILED",
      `Cannot find the parent's files: neither ${override} nor HOME is set`,
    );
  }
  return join(h, dir);
}

/** The metered agent for a caller, or null. The seed's default parent is Codex, known by its thread id. */
export function meteredAgent(caller: string, env: EnvReader): MeteredAgent | null {
  if (caller === "codex" || caller === "claude-code") return caller;
  if (caller === "cli" && envValue(env, "CODEX_THREAD_ID")) return "codex";
  return null;
}

function threadFor(agent: MeteredAgent, env: EnvReader): { threadId: string; source: string } {
  // Each CLI tells the processes it starts its own session's id: Claude Code its shell commands and MCP
  // servers, Codex (0.171) its shell commands only (docs/usage.md).
  const names = ["PARENT_THREAD_ID", agent === "codex" ? "CODEX_THREAD_ID" : "CLAUDE_CODE_SESSION_ID"];
  const set = names.map((name) => ({ source: name, threadId: envValue(env, name) }))
    .filter((x): x is { source: string; threadId: string } => x.threadId !== undefined);
  if (set.length === 0) {
    throw new SpotError(
      "PARENT_METER_FAILED",
      `Cannot meter the ${agent} parent: no thread id: set ${names.join(" or ")}`,
      { details: { agent } },
    );
  }
  if (set.length > 1 && set[0].threadId !== set[1].threadId) {
    throw new SpotError(
      "PARENT_METER_FAILED",
      `Cannot meter the ${agent} parent: PARENT_THREAD_ID "${set[0].threadId}" and ${set[1].source} ` +
        `"${set[1].threadId}" name different threads`,
      { details: { agent, threads: set } },
    );
  }
  checkThreadId(agent, set[0].threadId, set[0].source);
  return set[0];
}

async function meterCodex(
  env: EnvReader,
  threadId: string,
  settleMs: number,
): Promise<Omit<AvailableSnapshot, "takenAt" | "threadIdSource">> {
  const root = join(home(env, "CODEX_HOME", ".codex"), "sessions");
  const file = await findSessionFile(
    "codex",
    root,
    threadId,
    (name) => name === `${threadId}.jsonl` || name.endsWith(`-${threadId}.jsonl`),
    settleMs,
  );
  const read = readCodexRollout(await Deno.readTextFile(file));
  if (read.sessionId !== null && read.sessionId !== threadId) {
    throw new SpotError(
      "PARENT_METER_FAILED",
      `Cannot meter the codex parent: ${
        basename(file)
      } belongs to thread "${read.sessionId}", not "${threadId}"`,
      { details: { file, threadId, sessionId: read.sessionId } },
    );
  }
  return {
    schemaVersion: 1,
    kind: "spot-parent-usage",
    agent: "codex",
    available: true,
    threadId,
    sessionFile: file,
    files: [file],
    bytesRead: read.bytes,
    linesRead: read.lines,
    skippedLines: read.skipped,
    compactions: read.compactions,
    usage: read.usage,
    totalTokens: parentTotal(read.usage),
  };
}

async function meterClaude(
  env: EnvReader,
  threadId: string,
  settleMs: number,
): Promise<Omit<AvailableSnapshot, "takenAt" | "threadIdSource">> {
  const root = join(home(env, "CLAUDE_CONFIG_DIR", ".claude"), "projects");
  const matches = (name: string) => name === `${threadId}.jsonl`;
  const file = await findSessionFile("claude-code", root, threadId, matches, settleMs);
  // Newer versions keep subagent transcripts in a folder named after the session.
  const files = [file, ...await findJsonl(join(dirname(file), threadId), () => true)];
  const read = readClaudeSession(await Promise.all(files.map((f) => Deno.readTextFile(f))));
  return {
    schemaVersion: 1,
    kind: "spot-parent-usage",
    agent: "claude-code",
    available: true,
    threadId,
    sessionFile: file,
    files,
    bytesRead: read.bytes,
    linesRead: read.lines,
    skippedLines: read.skipped,
    compactions: read.compactions,
    usage: read.usage,
    totalTokens: parentTotal(read.usage),
  };
}

/** Meters one agent's thread; used at the end of a run with what the start snapshot recorded. */
export async function meterThread(
  agent: MeteredAgent,
  thread: { threadId: string; source: string },
  options: MeterOptions,
): Promise<AvailableSnapshot> {
  checkThreadId(agent, thread.threadId, thread.source);
  const takenAt = options.now();
  const settleMs = options.settleMs ?? SETTLE_MS;
  const body = agent === "codex"
    ? await meterCodex(options.env, thread.threadId, settleMs)
    : await meterClaude(options.env, thread.threadId, settleMs);
  return { ...body, takenAt, threadIdSource: thread.source };
}

/** The snapshot `spot parent-meter` writes, for whichever parent `caller` is. */
export async function takeParentSnapshot(caller: string, options: MeterOptions): Promise<ParentSnapshot> {
  const agent = meteredAgent(caller, options.env);
  if (!agent) {
    return {
      schemaVersion: 1,
      kind: "spot-parent-usage",
      agent: caller,
      available: false,
      takenAt: options.now(),
      reason: UNMETERED[caller] ?? UNMETERED.unknown,
    };
  }
  return await meterThread(agent, threadFor(agent, options.env), options);
}
