/**
 * Test and benchmark support: run directories written the way the run store
 * writes them (`state.json` with every RunState field, `task.json`, and the
 * optional verification, review, metrics and log files), without a worker.
 */
import { join } from "node:path";
import type { Caller, RunState, Status } from "../schemas/run_state.ts";
import type { SpotEvent } from "../schemas/events.ts";
import { type EnvReader, resolvePaths, type SpotPaths } from "../store/paths.ts";
import { RunIndex } from "../store/run_index.ts";
import { Config } from "../schemas/config.ts";

export interface FixtureFiles {
  goal?: string;
  verification?: unknown;
  selfReview?: unknown;
  review?: unknown;
  metrics?: unknown;
  workerLog?: string;
  events?: SpotEvent[];
}

const COMMIT = "0123456789abcdef0123456789abcdef01234567";

/** A complete RunState; `at` is the creation time, and overrides win. */
export function fixtureState(
  runId: string,
  overrides: Partial<RunState> = {},
  at = "2025-01-01T00:00:00.000Z",
) {
  const status: Status = overrides.status ?? "integrated";
  const state: RunState = {
    schemaVersion: 1,
    runId,
    status,
    createdAt: at,
    updatedAt: at,
    caller: "cli" as Caller,
    sourceRoot: "/tmp/repo",
    sourceHead: COMMIT,
    sourceBranch: "main",
    sourceFingerprint: { head: COMMIT, branch: "main", dirty: false, digest: "d".repeat(64) },
    sourceDirty: false,
    worktreePath: `/tmp/worktrees/${runId}`,
    workerBranch: `pi-worker/${runId}`,
    baseRevision: COMMIT,
    workerBaseRevision: COMMIT,
    snapshotCommit: null,
    worktreeReady: true,
    profile: "replay",
    adapter: "replay",
    provider: "replay",
    model: "/tmp/episode.jsonl",
    sandbox: "deno-permissions",
    identity: { name: "spot worker", email: "worker@spot.invalid" },
    revisionRound: 0,
    fallbackUsed: false,
    workerUsage: { input: 1200, output: 300, cacheRead: 400, cacheWrite: 0 },
    workerCostUsd: 0.0012,
    workerDurationMs: 4200,
    workerAttempts: 1,
    transitions: [{ from: null, to: "prepared", at, reason: "prepared" }],
    failure: null,
    interruption: null,
    lastVerificationPassed: true,
    diffSha256: "e".repeat(64),
    diffBytes: 120,
    selfReviewSkipped: null,
    selfReviewSkipReason: null,
    implementationCommit: status === "integrated" || status === "committed" ? COMMIT : null,
    integratedCommit: status === "integrated" ? COMMIT : null,
    blockedReason: null,
    recovery: null,
    lastReportAt: null,
    cleanedAt: null,
    ...overrides,
  };
  return state;
}

/** Writes one run directory; returns its path. */
export async function writeFixtureRun(
  paths: SpotPaths,
  state: RunState,
  files: FixtureFiles = {},
): Promise<string> {
  const dir = join(paths.runsDir, state.runId);
  await Deno.mkdir(dir, { recursive: true });
  const json = (name: string, value: unknown) =>
    Deno.writeTextFile(join(dir, name), JSON.stringify(value, null, 2) + "\n");
  await json("task.json", {
    schemaVersion: 1,
    runId: state.runId,
    goal: files.goal ?? `Fix the bug of ${state.runId}`,
    allowedPaths: ["src/add.ts"],
    repositoryRoot: state.sourceRoot,
    baseRevision: state.baseRevision,
  });
  if (files.verification !== undefined) await json("verification.json", files.verification);
  if (files.selfReview !== undefined) await json("self-review.json", files.selfReview);
  if (files.review !== undefined) await json("review.json", files.review);
  if (files.metrics !== undefined) await json("metrics.json", files.metrics);
  if (files.workerLog !== undefined) await Deno.writeTextFile(join(dir, "worker.log"), files.workerLog);
  if (files.events) {
    await Deno.writeTextFile(
      join(dir, "events.jsonl"),
      files.events.map((e) => JSON.stringify(e) + "\n").join(""),
    );
  }
  await json("state.json", state);
  return dir;
}

/** Moves a folder's mtime into the past, as if it had settled long ago. */
export async function settle(path: string, secondsAgo = 60): Promise<void> {
  const past = new Date(Date.now() - secondsAgo * 1000);
  await Deno.utime(path, past, past);
}

export interface FixtureHome {
  root: string;
  paths: SpotPaths;
  index: RunIndex;
  config: Config;
  env: EnvReader;
  cleanup(): Promise<void>;
}

/** A temp state directory with an open index, a small config and a fake environment. */
export async function fixtureHome(envVars: Record<string, string> = {}): Promise<FixtureHome> {
  const root = await Deno.makeTempDir({ prefix: "spot-serve-" });
  const vars: Record<string, string> = {
    HOME: root,
    PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin",
    PI_WORKER_STATE_DIR: join(root, "state"),
    PI_WORKER_CONFIG: join(root, "config.json"),
    PI_WORKER_CACHE_DIR: join(root, "cache"),
    ...envVars,
  };
  const env: EnvReader = (name) => vars[name];
  const paths = resolvePaths(env);
  await Deno.mkdir(paths.runsDir, { recursive: true });
  const index = RunIndex.open(paths);
  const config = Config.parse({
    defaultProfile: "cheap",
    profiles: {
      cheap: { adapter: "pi", provider: "deepseek", model: "deepseek-chat", apiKeyEnv: "DEEPSEEK_API_KEY" },
      spare: { adapter: "pi", provider: "kimi", model: "kimi", apiKeyEnv: "KIMI_API_KEY" },
      replay: { adapter: "replay", provider: "replay", model: "" },
    },
  });
  return {
    root,
    paths,
    index,
    config,
    env,
    async cleanup() {
      index.close();
      await Deno.remove(root, { recursive: true });
    },
  };
}
