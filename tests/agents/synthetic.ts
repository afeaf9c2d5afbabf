/**
 * Synthetic agents for the poll tests, the seed's way: a registry entry and
 * a run directory built by hand, the run's events made by spot's own pi
 * stream reader from raw `pi --mode json` lines, and the driver's pid, exit
 * marker and times set as each case needs.
 */
import { join } from "node:path";
import { parsePiLine } from "../../adapters/streams/pi.ts";
import { newParseState } from "../../adapters/types.ts";
import { spawnDetached } from "../../sandbox/spawn.ts";
import { parseStat } from "../../worker/process_tree.ts";
import type { SpotEnv } from "../helpers.ts";

/** A pid no process has (Linux caps pids far below it). */
export const DEAD_PID = 2_000_000_000;

export interface SyntheticAgent {
  /** Raw pi stream lines. */
  stream?: Record<string, unknown>[];
  /** `none`: no pid in the handle; `dead`; `alive`: a real sleeping process the poll may have to stop. */
  driver: "none" | "dead" | "alive";
  rc?: number;
  startedAgoS: number;
  /** When the driver wrote its marker, after its start. */
  endedAfterS?: number;
  /** When the stream last grew, after the start (default: the end, or the start). */
  activityAfterS?: number;
  /** When the worker's final message came, after the start. */
  resultAfterS?: number;
  failure?: string;
  persisted?: string;
  noHandle?: boolean;
}

export interface Built {
  name: string;
  runDir: string;
  output: string;
  bytes: number;
  pid: number | null;
}

export const assistant = (text: string | null, stopReason: string, extra: Record<string, unknown> = {}) => ({
  role: "assistant",
  content: text === null ? [] : [{ type: "text", text }],
  stopReason,
  usage: { input: 100, output: 20, cacheRead: 0, cacheWrite: 0, cost: { total: 0.0005 } },
  ...extra,
});

/** A pi run that ends with this final message. */
export function piRun(
  final: Record<string, unknown>,
  middle: Record<string, unknown>[] = [],
): Record<string, unknown>[] {
  return [
    { type: "session", id: "sess-1" },
    { type: "agent_start" },
    ...middle,
    { type: "message_end", message: final },
    { type: "agent_end", messages: [final] },
  ];
}

export async function buildAgent(env: SpotEnv, name: string, a: SyntheticAgent): Promise<Built> {
  const runId = `run-${name}`;
  const runDir = join(env.stateDir, "runs", runId);
  const agentDir = join(env.stateDir, "agents", name);
  await Deno.mkdir(runDir, { recursive: true });
  await Deno.mkdir(agentDir, { recursive: true });
  const started = Date.now() - a.startedAgoS * 1000;
  const at = (s: number) => new Date(started + s * 1000);
  const raw = (a.stream ?? []).map((l) => JSON.stringify(l)).join("\n") + (a.stream?.length ? "\n" : "");
  const state = newParseState();
  const resultAt = at(a.resultAfterS ?? a.endedAfterS ?? 0).toISOString();
  const events = (a.stream ?? []).flatMap((l) => parsePiLine(JSON.stringify(l), state)).map((e) => ({
    ...e,
    phase: "run",
    runId,
    at: e.type === "worker_result" ? resultAt : at(0).toISOString(),
  }));
  const streamFile = join(runDir, "worker-stream.jsonl");
  const eventsFile = join(runDir, "events.jsonl");
  await Deno.writeTextFile(streamFile, raw);
  await Deno.writeTextFile(eventsFile, events.map((e) => JSON.stringify(e)).join("\n") + "\n");
  await Deno.writeTextFile(
    join(runDir, "state.json"),
    JSON.stringify({
      runId,
      adapter: "pi",
      provider: "scripted",
      model: "m1",
      failure: a.failure ? { code: "WORKER_FAILED", message: a.failure } : null,
    }),
  );
  const activity = at(a.activityAfterS ?? a.endedAfterS ?? 0);
  await Deno.utime(streamFile, activity, activity);
  await Deno.utime(eventsFile, activity, activity);
  let pid: number | null = null;
  let procStart: number | null = null;
  if (a.driver === "dead") pid = DEAD_PID;
  if (a.driver === "alive") {
    pid = spawnDetached(["sleep", "60"], { env: { PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin" } }).pid;
    procStart = parseStat(Deno.readTextFileSync(`/proc/${pid}/stat`))?.start ?? null;
  }
  if (!a.noHandle) {
    await Deno.writeTextFile(
      join(agentDir, "agent.json"),
      JSON.stringify({
        schemaVersion: 1,
        name,
        runId,
        kind: "task",
        attempt: 1,
        startedAt: new Date(started).toISOString(),
        pid,
        procStart,
        previousRuns: [],
      }),
    );
  }
  if (a.rc !== undefined) {
    const rcFile = join(agentDir, "rc");
    await Deno.writeTextFile(rcFile, `${a.rc}\n`);
    const end = at(a.endedAfterS ?? 0);
    await Deno.utime(rcFile, end, end);
  }
  if (a.persisted) await Deno.writeTextFile(join(agentDir, "status"), a.persisted + "\n");
  return {
    name,
    runDir,
    output: join(runDir, "result.md"),
    bytes: new TextEncoder().encode(raw).length,
    pid,
  };
}
