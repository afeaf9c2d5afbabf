/**
 * The registry of named agents: one directory per name under the state root
 * (`agents/<NAME>/`), holding what `start` launched (`launch.json`), the
 * driver's handle (`agent.json`), the driver's exit marker (`rc`), its error
 * (`error.json`) and the persisted terminal line (`status`). The run itself
 * lives in the run store like any other run; an agent only names it.
 */
import { join } from "../base/path.ts";
import { SpotError } from "../errors.ts";
import type { SpotPaths } from "../store/paths.ts";
import { readJsonFile, writeJsonAtomic } from "../store/files.ts";

/** The seed's rule: a letter or digit first, then letters, digits, `_` and `-`. */
export const AGENT_NAME_PATTERN = /^[A-Za-z0-9][A-Za-z0-9_-]*$/;
/** Names become directory names and run-id parts; keep them short. */
const MAX_NAME = 64;

export type AgentKind = "task" | "brief" | "run";

/** What the driver is asked to do; written before it starts. */
export interface AgentLaunch {
  name: string;
  kind: AgentKind;
  runId: string;
  /** The caller's directory, where relative paths were resolved. */
  cwd: string;
  taskFile?: string;
  profile?: string;
  model?: string;
  sandbox?: string;
  /** A follow-up turn (`spot agent send`): the session to resume, which turn this is, and its message. */
  resume?: { runId: string; sessionId: string; turn: number; messageFile: string };
  /** The agent whose wall this start re-dispatches. */
  redispatchOf?: string;
  /** Events of the run before this turn (an earlier turn's): the driver and poll read only the later ones. */
  eventsFrom?: number;
}

/** The handle of a started driver. */
export interface AgentRecord {
  schemaVersion: 1;
  name: string;
  runId: string;
  kind: AgentKind;
  attempt: number;
  startedAt: string;
  pid: number | null;
  /** The driver's start time in clock ticks (Linux), so a reused pid is never taken for it. */
  procStart: number | null;
  redispatchOf?: string;
  /** Earlier runs of this name (a settled name started again starts a new one). */
  previousRuns: string[];
  /** Where this turn starts in a run an earlier turn used (a follow-up, a re-dispatch): event count, stream bytes. */
  eventsFrom?: number;
  streamFrom?: number;
}

export function checkName(name: string): string {
  if (!AGENT_NAME_PATTERN.test(name) || name.length > MAX_NAME) {
    throw new SpotError(
      "AGENT_NAME_INVALID",
      `Cannot use agent name "${name}": a name is 1 to ${MAX_NAME} letters, digits, "_" or "-", starting with a letter or digit`,
      { details: { name } },
    );
  }
  return name;
}

/** A run id as an agent name (`spot run --detach` without --name): run ids may hold dots, names may not. */
export function agentNameFor(runId: string): string {
  return runId.replace(/[^A-Za-z0-9_-]/g, "_");
}

export const agentsRoot = (paths: SpotPaths): string => join(paths.stateRoot, "agents");
export const agentDir = (paths: SpotPaths, name: string): string => join(agentsRoot(paths), checkName(name));
export const agentFile = (paths: SpotPaths, name: string, file: string): string =>
  join(agentDir(paths, name), file);

export async function readRecord(paths: SpotPaths, name: string): Promise<AgentRecord | null> {
  return await readJsonFile<AgentRecord>(agentFile(paths, name, "agent.json")).catch(() => null);
}

export async function writeRecord(paths: SpotPaths, record: AgentRecord): Promise<void> {
  await writeJsonAtomic(agentFile(paths, record.name, "agent.json"), record);
}

export async function readLaunch(paths: SpotPaths, name: string): Promise<AgentLaunch | null> {
  return await readJsonFile<AgentLaunch>(agentFile(paths, name, "launch.json")).catch(() => null);
}

/** Like `readRecord`, but a name with no entry is the caller's mistake. */
export async function requireRecord(paths: SpotPaths, name: string): Promise<AgentRecord> {
  const record = await readRecord(paths, name);
  if (!record && !(await exists(agentDir(paths, name)))) {
    throw new SpotError("AGENT_NOT_FOUND", `Cannot find agent "${name}": no such name is registered`, {
      details: { name, nextCommand: "spot agent ls" },
    });
  }
  return record ?? brokenRecord(name);
}

/** A registered name whose handle is missing or unreadable: poll reports it broken. */
function brokenRecord(name: string): AgentRecord {
  return {
    schemaVersion: 1,
    name,
    runId: "",
    kind: "run",
    attempt: 0,
    startedAt: "",
    pid: null,
    procStart: null,
    previousRuns: [],
  };
}

export async function listNames(paths: SpotPaths): Promise<string[]> {
  const names: string[] = [];
  try {
    for await (const entry of Deno.readDir(agentsRoot(paths))) {
      if (entry.isDirectory && AGENT_NAME_PATTERN.test(entry.name)) names.push(entry.name);
    }
  } catch (error) {
    if (!(error instanceof Deno.errors.NotFound)) throw error;
  }
  return names.sort();
}

/** Removes the name; the run it named stays in the run store. */
export async function unregister(paths: SpotPaths, name: string): Promise<boolean> {
  try {
    await Deno.remove(agentDir(paths, name), { recursive: true });
    return true;
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return false;
    throw error;
  }
}

async function exists(path: string): Promise<boolean> {
  try {
    await Deno.stat(path);
    return true;
  } catch {
    return false;
  }
}
