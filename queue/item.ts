/**
 * What travels through the queue, checked where it arrives (an executor reads what another machine wrote): the
 * work item an origin enqueues, the task's status record (the one place a task's attempt, holder and outcome
 * live), and the record each executor keeps of itself.
 */
import { z } from "zod";

/** A task id: a key of the status bucket and part of object names, so letters, digits, `.`, `_` and `-`. */
export const TASK_ID_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._-]{2,95}$/;
const Sha = z.string().regex(/^[0-9a-f]{40}([0-9a-f]{24})?$/, "a full commit id");

export const SandboxNeed = z.enum(["os", "none"]);
export type SandboxNeed = z.infer<typeof SandboxNeed>;

/** One piece of work: a prepared run's worker turn and spot's verification, to be done on some executor. */
export const WorkItem = z.object({
  schemaVersion: z.literal(1),
  taskId: z.string().regex(TASK_ID_PATTERN),
  origin: z.object({
    host: z.string(),
    runId: z.string(),
    jobId: z.string().optional(),
    jobTask: z.string().optional(),
  }).strict(),
  /**
   * The repository (its root commit), the origin's HEAD, the commit the worker's diff counts from, and where its
   * files start when not there (a job's repair continuing its verified work).
   */
  repo: z.object({ id: Sha, head: Sha, start: Sha, checkout: Sha.optional() }).strict(),
  profile: z.string().min(1),
  model: z.string(),
  sandbox: SandboxNeed,
  /** The run's contract as the origin resolved it, less what only the origin's machine knows. */
  contract: z.record(z.string(), z.unknown()),
  /** A replay profile's episode, carried because its file lives on the origin. */
  episode: z.string().optional(),
  workspaceEnv: z.record(z.string(), z.string()).optional(),
  turn: z.object({
    prompt: z.string().optional(),
    readOnly: z.boolean().optional(),
    budget: z.object({
      costUsd: z.number().optional(),
      turns: z.number().optional(),
      toolCalls: z.number().optional(),
    }).optional(),
    web: z.object({ hosts: z.array(z.string()) }).optional(),
  }).strict(),
  /**
   * Files the turn may read, from the origin's run dir (`base`), by path under it; the prompt names them there, and
   * the executor names its own run dir instead.
   */
  attachments: z.object({
    base: z.string(),
    files: z.array(
      z.object({ path: z.string().regex(/^(?!\/)(?!.*(^|\/)\.\.(\/|$)).+$/), content: z.string() }),
    ),
  }).strict().optional(),
  /** Run `verify` after the turn (a builder's or a single run's work; a read-only role's is judged by its job). */
  verify: z.boolean(),
  /** Then the worker's self-review, when the verification passed (a single run's; the origin's config decides). */
  selfReview: z.boolean().optional(),
  /** A job task's result is read on the executor, which can repair it in the worker's session. */
  jobResult: z.object({
    tasks: z.array(z.unknown()),
    task: z.string(),
    bound: z.record(z.string(), z.string()).optional(),
  }).optional(),
  enqueuedAt: z.string(),
}).strict();
export type WorkItem = z.infer<typeof WorkItem>;

export const TaskState = z.enum(["queued", "running", "done", "failed", "cancelled"]);
export type TaskState = z.infer<typeof TaskState>;
export const ENDED: ReadonlySet<TaskState> = new Set(["done", "failed", "cancelled"]);

/** Where an attempt left its result in the object store. */
export const ResultRef = z.object({
  record: z.string(),
  bundle: z.string().optional(),
  commit: Sha.optional(),
}).strict();
export type ResultRef = z.infer<typeof ResultRef>;

/** The task's record in the status bucket; every change is a compare-and-set on its revision. */
export const TaskStatus = z.object({
  taskId: z.string(),
  state: TaskState,
  /** 0 until claimed; each claim takes the next number, and only its holder may end it. */
  attempt: z.number().int().min(0),
  executor: z.string().optional(),
  profile: z.string(),
  sandbox: SandboxNeed,
  origin: z.object({ host: z.string(), runId: z.string() }),
  enqueuedAt: z.string(),
  claimedAt: z.string().optional(),
  heartbeatAt: z.string().optional(),
  endedAt: z.string().optional(),
  result: ResultRef.optional(),
  failure: z.object({ code: z.string(), message: z.string() }).optional(),
  /** Attempts given up (a lease lost, a release on drain), newest last. */
  history: z.array(
    z.object({ attempt: z.number(), executor: z.string(), outcome: z.string(), at: z.string() }),
  )
    .default([]),
  /** Unique per write: a write whose answer was lost (a server restart) is recognised when read back. */
  writeId: z.string(),
}).strict();
export type TaskStatus = z.infer<typeof TaskStatus>;

/** What an executor says of itself, refreshed with each heartbeat. */
export const ExecutorRecord = z.object({
  name: z.string(),
  host: z.string(),
  pid: z.number(),
  capacity: z.number().int().min(1),
  profiles: z.array(z.string()),
  sandbox: SandboxNeed,
  state: z.enum(["ready", "draining", "stopped"]),
  startedAt: z.string(),
  heartbeatAt: z.string(),
  running: z.array(
    z.object({ taskId: z.string(), runId: z.string(), attempt: z.number(), since: z.string() }),
  ),
  done: z.number().int().min(0),
  heartbeatSeconds: z.number().positive(),
}).strict();
export type ExecutorRecord = z.infer<typeof ExecutorRecord>;

/**
 * An executor as `spot executor ls` shows it: alive while its heartbeats arrive. Written out (not inferred from
 * the schema) because the library publishes it; `seenAs` holds it to the record.
 */
export interface ExecutorSeen {
  /** The name it joined under. */
  name: string;
  /** The machine it runs on. */
  host: string;
  /** Its process id on that machine. */
  pid: number;
  /** Tasks it takes at once. */
  capacity: number;
  /** The profiles it serves. */
  profiles: string[];
  /** The sandbox it offers: `os`, or `none`. */
  sandbox: "os" | "none";
  /** What it last said of itself. */
  state: "ready" | "draining" | "stopped";
  /** When it joined. */
  startedAt: string;
  /** When it last said so. */
  heartbeatAt: string;
  /** The attempts it holds. */
  running: { taskId: string; runId: string; attempt: number; since: string }[];
  /** Attempts it finished since it joined. */
  done: number;
  /** How often it says so. */
  heartbeatSeconds: number;
  /** `alive`, `stale` (three heartbeats missed), or the state it said it left in. */
  status: "alive" | "stale" | "draining" | "stopped";
  /** The attempts it holds now. */
  load: number;
}

/** Missed heartbeats after which an executor is shown stale (its tasks' leases run out on their own). */
const STALE_AFTER_BEATS = 3;

export function seenAs(record: ExecutorRecord, nowMs: number): ExecutorSeen {
  const silentMs = nowMs - Date.parse(record.heartbeatAt);
  const stale = silentMs > STALE_AFTER_BEATS * record.heartbeatSeconds * 1000;
  const status = record.state === "stopped"
    ? "stopped"
    : stale
    ? "stale"
    : record.state === "draining"
    ? "draining"
    : "alive";
  return { ...record, status, load: record.running.length };
}
