/**
 * The fleet tests' machines: an origin and executors, each with its own state, cache, config and HOME (as if on
 * three machines), all pointed at one loopback nats-server; executors run as real `spot executor join` processes
 * the test starts and signals by pid.
 */
import { join } from "node:path";
import { type ProcessResult, spawnProcess } from "../../sandbox/spawn.ts";
import { CLI, ROOT, spot, type SpotEnv, spotEnv, writeEpisode, writeJson } from "../helpers.ts";
import assert from "node:assert/strict";
import { createApp } from "../../serve/app.ts";
import { Config } from "../../schemas/config.ts";
import { resolvePaths } from "../../store/paths.ts";
import { ended } from "./nats_server.ts";
import { runIndexFor } from "../../store/run_index.ts";

export interface Machine extends SpotEnv {
  name: string;
}

/**
 * Every process a fleet test starts ends: a `spot` call is killed after this (a hung call fails its test instead
 * of holding the test run open), and so is a background `spot run --on fleet`.
 */
export const CALL_MS = 300_000;
export const BACKGROUND_MS = 600_000;

/** A machine whose config points at the queue; `extra` merges into the config. */
export async function machine(
  name: string,
  url: string,
  extra: Record<string, unknown> = {},
): Promise<Machine> {
  const env = await spotEnv({
    maxConcurrentRuns: 8,
    sandbox: "none",
    selfReview: { enabled: false },
    queue: { backend: "nats", url, leaseSeconds: 3, claimTimeoutSeconds: 120 },
    ...extra,
  });
  const home = join(env.dir, "home");
  await Deno.mkdir(home);
  // Deno's own cache is the test run's: a fresh HOME would otherwise mean a fresh (downloading) Deno cache.
  const denoDir = Deno.env.get("DENO_DIR") ?? join(Deno.env.get("HOME") ?? "/root", ".cache", "deno");
  return { ...env, name, env: { ...env.env, HOME: home, DENO_DIR: denoDir }, callTimeoutMs: CALL_MS };
}

export interface RunningExecutor {
  pid: number;
  stderr: string[];
  done: Promise<ProcessResult>;
}

export async function startExecutor(m: Machine, args: string[] = []): Promise<RunningExecutor> {
  const stderr: string[] = [];
  let started: (pid: number) => void = () => {};
  const spawned = new Promise<number>((r) => started = r);
  const done = spawnProcess([
    Deno.execPath(),
    "run",
    "--allow-all",
    "--no-prompt",
    "--config",
    join(ROOT, "deno.json"),
    CLI,
    "executor",
    "join",
    "--name",
    m.name,
    ...args,
  ], { cwd: m.dir, env: m.env, onSpawn: started, onStderrLine: (l) => stderr.push(l) });
  const pid = await spawned;
  try {
    await until(
      `executor ${m.name} to be ready`,
      () => Promise.resolve(stderr.some((l) => l.includes(": ready on "))),
      60_000,
      done,
    );
  } catch (error) {
    // The caller never gets its pid: it is stopped here, or it would outlive the test.
    await ended(pid, done, "SIGINT");
    throw error;
  }
  return { pid, stderr, done };
}

export async function until(
  what: string,
  ok: () => Promise<boolean>,
  ms = 60_000,
  diedIf?: Promise<ProcessResult>,
): Promise<void> {
  let died: ProcessResult | null = null;
  diedIf?.then((r) => died = r);
  const end = Date.now() + ms;
  while (!(await ok())) {
    if (died) {
      throw new Error(`gave up waiting for ${what}: the process exited: ${(died as ProcessResult).stderr}`);
    }
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** SIGTERM, and the executor's answer once it drained (killed if it takes longer than `STOP_GRACE_MS`). */
export async function stopExecutor(
  e: RunningExecutor,
  signal: Deno.Signal = "SIGTERM",
): Promise<ProcessResult> {
  return await ended(e.pid, e.done, signal);
}

export { spot };

/** The origin's dashboard as an app value (no port), its config pointing at the queue. */
export function originDashboard(m: Machine, url: string) {
  const paths = resolvePaths((n) => m.env[n]);
  const app = createApp({
    paths,
    config: Config.parse({ queue: { backend: "nats", url, leaseSeconds: 3 } }),
    env: (n) => m.env[n],
    index: runIndexFor(paths),
    binding: { hostname: "127.0.0.1", port: 7317 },
    csrfToken: "token",
    onError: () => {},
  });
  return async (path: string) => {
    const res = await app.request(`http://127.0.0.1:7317${path}`);
    return { status: res.status, body: await res.text() };
  };
}

/** A run prepared on the origin with the replay worker doing `ops`; its id. */
export async function prepared(origin: Machine, repo: string, name: string, ops: Record<string, unknown>[]) {
  const episode = join(origin.dir, `${name}.jsonl`);
  await writeEpisode(episode, ops);
  const task = join(origin.dir, `${name}.json`);
  await writeJson(task, {
    schemaVersion: 1,
    goal: `Write ${name}.txt for the test`,
    allowedPaths: [`${name}.txt`],
    acceptanceCriteria: ["written"],
    verification: [{ argv: ["true"], timeoutSeconds: 30 }],
    risk: "low",
  });
  const p = await spot(origin, repo, "prepare", "--task", task, "--profile", "replay", "--model", episode);
  assert.equal(p.code, 0, p.stderr);
  return String(p.json.runId);
}

/** `spot run --id ID --on fleet` in the background; `stop` ends it by its pid (harmless once it ended). */
export function runInBackground(origin: Machine, repo: string, runId: string) {
  let started: (pid: number) => void = () => {};
  const pid = new Promise<number>((r) => started = r);
  const done = spawnProcess(
    [
      Deno.execPath(),
      "run",
      "--allow-all",
      "--no-prompt",
      "--config",
      join(ROOT, "deno.json"),
      CLI,
      "run",
      "--id",
      runId,
      "--on",
      "fleet",
    ],
    { cwd: repo, env: origin.env, onSpawn: started, timeoutMs: BACKGROUND_MS },
  );
  return { pid, done, stop: async () => await ended(await pid, done, "SIGINT") };
}

/** The run's `state.fleet` on the origin. */
export const fleetOf = async (origin: Machine, runId: string) =>
  JSON.parse(await Deno.readTextFile(join(origin.stateDir, "runs", runId, "state.json"))).fleet ?? {};
