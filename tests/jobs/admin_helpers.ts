/** What the tests of the job housekeeping verbs share: a gate a task waits at, the files they read, a lock held. */
import assert from "node:assert/strict";
import { join } from "node:path";
import { CLI, type CliResult, ROOT, sh, type SpotEnv } from "../helpers.ts";
import { spawnProcess } from "../../sandbox/spawn.ts";

/** A replay step that waits until the test opens the gate (a file appears), so a task is running for sure. */
export function gate(dir: string) {
  const flag = join(dir, `gate-${crypto.randomUUID()}`);
  return {
    wait: { op: "exec", argv: ["sh", "-c", `while [ ! -e '${flag}' ]; do sleep 0.05; done`] },
    open: () => Deno.writeTextFile(flag, ""),
  };
}

export const exists = async (path: string) => (await Deno.lstat(path).catch(() => null)) !== null;

export const readJson = async (path: string) => JSON.parse(await Deno.readTextFile(path));

export const runState = (env: SpotEnv, runId: string) =>
  readJson(join(env.stateDir, "runs", runId, "state.json"));

export const jobPath = (env: SpotEnv, jobId: string, ...rest: string[]) =>
  join(env.stateDir, "jobs", jobId, ...rest);

export async function waitFor(what: string, ok: () => Promise<boolean>, timeoutMs = 60_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!(await ok())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Makes the job look untouched for `days` (gc ages a job by its state's updatedAt). */
export async function age(env: SpotEnv, jobId: string, days: number): Promise<void> {
  const file = jobPath(env, jobId, "state.json");
  const state = await readJson(file);
  state.updatedAt = new Date(Date.now() - days * 86_400_000).toISOString();
  await Deno.writeTextFile(file, JSON.stringify(state, null, 2));
}

/** A kernel lock on `path` held by this test process, as a live spot process would hold it. */
export async function holdLock(path: string): Promise<{ release: () => void }> {
  const file = await Deno.open(path, { read: true, write: true, create: true });
  await file.lock(true);
  return { release: () => file.close() };
}

export async function branchExists(repo: string, branch: string): Promise<boolean> {
  return (await sh(repo, "git", "branch", "--list", branch)).trim() !== "";
}

/** `spot …` with text on stdin (tests/helpers.ts `spot` closes it). */
export async function spotWithStdin(
  env: SpotEnv,
  cwd: string,
  stdin: string,
  ...args: string[]
): Promise<CliResult> {
  const r = await spawnProcess(
    [Deno.execPath(), "run", "--allow-all", "--no-prompt", "--config", join(ROOT, "deno.json"), CLI, ...args],
    { cwd, env: env.env, stdinText: stdin },
  );
  const text = (r.exitCode === 0 ? r.stdout : r.stderr).trim().split("\n").pop() ?? "{}";
  return { code: r.exitCode, json: JSON.parse(text), stdout: r.stdout, stderr: r.stderr };
}

export const details = (r: CliResult) => (r.json.error as { details: Record<string, unknown> }).details;

export function ok(r: CliResult): Record<string, unknown> {
  assert.equal(r.code, 0, r.stdout + r.stderr);
  return r.json;
}
