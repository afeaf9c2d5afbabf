/**
 * Run directories the original `pi-worker` wrote into the same state
 * directory. spot shows them (`list`, `inspect`, the dashboard) but never
 * drives or changes them: they load as a RunState marked `origin:
 * "pi-worker"`, and `RunStore.lock()` refuses them. Its names are read where
 * spot renamed something: `lastPiDurationMs`, the interruption and recovery
 * records, the diff hash kept in `security`, and the worker's usage from
 * `metrics.json` (`pi.usage`) or else `pi-events.jsonl`.
 */
import { join } from "../base/path.ts";
import type { Usage } from "../schemas/events.ts";
import { addUsage, ZERO_USAGE } from "../schemas/usage_sum.ts";
import type { RunState, Status, Transition } from "../schemas/run_state.ts";
import { readJsonFile, readJsonLines } from "./files.ts";

export const PI_WORKER_ORIGIN = "pi-worker";

/** What the original called `worker-stream.jsonl`: every line pi printed, plus its attempt records. */
export const PI_EVENTS_FILE = "pi-events.jsonl";

type Json = Record<string, unknown>;

const isObject = (v: unknown): v is Json => typeof v === "object" && v !== null && !Array.isArray(v);
const str = (v: unknown): string | null => typeof v === "string" && v !== "" ? v : null;
const num = (v: unknown): number | null => typeof v === "number" && Number.isFinite(v) && v >= 0 ? v : null;
const bool = (v: unknown): boolean | null => typeof v === "boolean" ? v : null;

/** A state.json spot did not write: the run fields, but none of spot's own (spot always records usage). */
export function isPiWorkerState(value: unknown, dirName?: string): value is Json {
  if (!isObject(value) || value.workerUsage !== undefined) return false;
  if (!["runId", "status", "createdAt", "updatedAt"].every((k) => str(value[k]) !== null)) return false;
  return dirName === undefined || value.runId === dirName;
}

function transitions(value: unknown): Transition[] {
  if (!Array.isArray(value)) return [];
  return value.filter(isObject).filter((t) => str(t.to) !== null).map((t) => ({
    from: (str(t.from) as Status | null) ?? null,
    to: t.to as Status,
    at: str(t.at) ?? "",
    reason: str(t.reason) ?? "",
  }));
}

function failure(value: unknown): RunState["failure"] {
  if (!isObject(value) || str(value.code) === null) return null;
  return {
    code: value.code as string,
    message: str(value.message) ?? "",
    ...(isObject(value.details) ? { details: value.details } : {}),
  };
}

/** The original's state as spot's record; usage is filled in by `withPiWorkerUsage`. */
export function fromPiWorkerState(v: Json): RunState {
  const head = str(v.sourceHead) ?? "";
  const base = str(v.baseRevision) ?? head;
  const fingerprint = isObject(v.sourceFingerprint) ? v.sourceFingerprint : {};
  const interruption = isObject(v.interruption) ? v.interruption : null;
  const recovery = isObject(v.recovery) ? v.recovery : null;
  const security = isObject(v.security) ? v.security : {};
  return {
    schemaVersion: 1,
    origin: PI_WORKER_ORIGIN,
    runId: v.runId as string,
    status: v.status as Status,
    createdAt: v.createdAt as string,
    updatedAt: v.updatedAt as string,
    caller: (str(v.caller) ?? "unknown") as RunState["caller"],
    sourceRoot: str(v.sourceRoot) ?? "",
    sourceHead: head,
    sourceBranch: str(v.sourceBranch),
    sourceFingerprint: {
      head: str(fingerprint.head) ?? head,
      branch: str(v.sourceBranch),
      dirty: fingerprint.dirty === true,
      digest: str(fingerprint.digest) ?? "",
    },
    sourceDirty: v.sourceDirty === true,
    worktreePath: str(v.worktreePath) ?? "",
    workerBranch: str(v.workerBranch) ?? `pi-worker/${v.runId}`,
    baseRevision: base,
    workerBaseRevision: str(v.workerBaseRevision) ?? base,
    snapshotCommit: str(v.snapshotCommit),
    worktreeReady: false,
    profile: str(v.profile) ?? "unknown",
    adapter: str(v.adapter) ?? "pi",
    provider: str(v.provider) ?? "unknown",
    model: str(v.model) ?? "unknown",
    sandbox: "none",
    identity: { name: "", email: "" },
    revisionRound: num(v.revisionRound) ?? 0,
    fallbackUsed: v.fallbackUsed === true,
    workerUsage: ZERO_USAGE,
    workerCostUsd: 0,
    workerDurationMs: num(v.lastPiDurationMs) ?? 0,
    workerAttempts: 0,
    transitions: transitions(v.transitions),
    failure: failure(v.failure),
    interruption: interruption && {
      at: str(interruption.interruptedAt) ?? "",
      signal: str(interruption.signal) ?? "",
      phase: (str(interruption.recoverableFrom) ?? v.status) as Status,
    },
    lastVerificationPassed: bool(v.lastVerificationPassed),
    diffSha256: str(security.diffSha256),
    diffBytes: num(v.diffBytes),
    selfReviewSkipped: bool(v.selfReviewSkipped),
    selfReviewSkipReason: str(v.selfReviewSkipReason),
    implementationCommit: str(v.implementationCommit),
    integratedCommit: str(v.integratedCommit),
    blockedReason: str(v.blockedReason),
    recovery: recovery && {
      at: str(recovery.recoveredAt) ?? "",
      from: (str(recovery.from) ?? v.status) as Status,
      to: (str(recovery.status) ?? v.status) as Status,
      reason: str(recovery.reason) ?? "",
      nextCommand: str(recovery.nextCommand),
    },
    lastReportAt: str(v.lastReportAt),
    cleanedAt: str(v.cleanedAt),
  };
}

/** pi's usage record (`message.usage`, or the original's `metrics.json` `pi.usage`). */
function piUsage(raw: unknown): { usage: Usage; costUsd: number } | null {
  if (!isObject(raw)) return null;
  const usage = {
    input: num(raw.input) ?? 0,
    output: num(raw.output) ?? 0,
    cacheRead: num(raw.cacheRead) ?? 0,
    cacheWrite: num(raw.cacheWrite) ?? 0,
  };
  const costUsd = num(isObject(raw.cost) ? raw.cost.total : raw.cost) ?? 0;
  return { usage, costUsd };
}

/** The worker's tokens and cost: the original's own summary after a report, else summed from its events. */
export async function readPiWorkerUsage(dir: string): Promise<{ usage: Usage; costUsd: number }> {
  const metrics = await readJsonFile<Json>(join(dir, "metrics.json")).catch(() => null);
  const reported = piUsage(isObject(metrics?.pi) ? metrics.pi.usage : null);
  if (reported) return reported;
  let total = { usage: ZERO_USAGE, costUsd: 0 };
  for (const line of await readJsonLines<Json>(join(dir, PI_EVENTS_FILE)).catch(() => [])) {
    const message = isObject(line) && line.type === "message_end" && isObject(line.message)
      ? line.message
      : null;
    const spent = message?.role === "assistant" ? piUsage(message.usage) : null;
    if (spent) total = { usage: addUsage(total.usage, spent.usage), costUsd: total.costUsd + spent.costUsd };
  }
  return total;
}

/** The state with the usage the original recorded in its own files. */
export async function withPiWorkerUsage(dir: string, state: RunState): Promise<RunState> {
  const { usage, costUsd } = await readPiWorkerUsage(dir);
  return { ...state, workerUsage: usage, workerCostUsd: costUsd };
}
