/**
 * The real-repository loop: a project with real dependencies, the real pi CLI fixing it with its own write
 * tool against the scripted model, under bwrap, and the contract's real check in the pristine tree. Each
 * test builds its project, says how its dependencies get there, and reads the run's records.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { availability } from "../conformance/workers.ts";
import { makeRepo, sh, spot, type SpotEnv, spotEnv, writeJson } from "../helpers.ts";
import { startModelServer } from "../model_server/mod.ts";

const KEY_ENV = "SPOT_PROJECT_KEY";

export interface ProjectLoop {
  env: SpotEnv;
  repo: string;
  runId: string;
  runDir: string;
  state: Record<string, unknown>;
  prepare: Record<string, unknown>;
  verify: Record<string, unknown>;
  integrate: Record<string, unknown>;
}

export interface ProjectCase {
  files: Record<string, string>;
  /** Runs in the source checkout after the first commit: installs what the user would have installed. */
  install?: (repo: string) => Promise<void>;
  /** The file the scripted model has pi write, and its new content. */
  fix: { file: string; content: string };
  allowedPaths: string[];
  lockedPaths: string[];
  verification: { argv: string[]; timeoutSeconds: number; env?: Record<string, string> }[];
  config?: Record<string, unknown>;
  /** Extra env for spot (PATH for a runtime, say). */
  spotEnv?: Record<string, string>;
}

export function piBinary(): string {
  const found = availability("pi");
  if ("binary" in found) return found.binary;
  throw new Error("fail" in found ? found.fail : found.reason);
}

/** prepare → run → verify → approve → integrate, with pi and the scripted model; stops at the first failure. */
export async function projectLoop(c: ProjectCase): Promise<ProjectLoop> {
  await using server = startModelServer({ file: c.fix.file, content: c.fix.content });
  const env = await spotEnv({
    selfReview: { enabled: false },
    verificationEnvAllowlist: ["CI", "NPM_CONFIG_UPDATE_NOTIFIER", "PYTHONDONTWRITEBYTECODE"],
    limits: { workerIdleSeconds: 30, workerTimeoutSeconds: 120 },
    ...c.config,
    profiles: {
      pi_scripted: {
        adapter: "pi",
        provider: "scripted",
        model: "scripted-model",
        apiKeyEnv: KEY_ENV,
        baseUrl: `${server.url}/v1`,
        providerType: "openai-completions",
        binary: piBinary(),
        maxRetries: 1,
      },
    },
  });
  env.env[KEY_ENV] = "sk-project-not-a-real-key";
  Object.assign(env.env, c.spotEnv ?? {});
  const repo = await makeRepo(c.files, env.dir);
  await c.install?.(repo);
  const taskFile = join(env.dir, "task.json");
  await writeJson(taskFile, {
    schemaVersion: 1,
    goal: `Fix ${c.fix.file} so that the tests pass`,
    allowedPaths: c.allowedPaths,
    lockedPaths: c.lockedPaths,
    acceptanceCriteria: ["the project's tests pass"],
    verification: c.verification,
    risk: "low",
  });
  const prepare = await spot(
    env,
    repo,
    "prepare",
    "--task",
    taskFile,
    "--profile",
    "pi_scripted",
    "--sandbox",
    "bwrap",
  );
  if (prepare.code !== 0) {
    const log = (prepare.json.error as { details?: { log?: string } } | undefined)?.details?.log;
    const tail = log ? await Deno.readTextFile(log).catch(() => "") : "";
    assert.fail(`prepare exited ${prepare.code}: ${prepare.stderr}\n${tail.slice(-3000)}`);
  }
  const runId = String(prepare.json.runId);
  const runDir = join(env.stateDir, "runs", runId);
  const state0 = JSON.parse(await Deno.readTextFile(join(runDir, "state.json")));
  server.workdir = state0.worktreePath;
  const run = await spot(env, repo, "run", "--id", runId);
  assert.equal(run.code, 0, run.stderr);
  const verify = await spot(env, repo, "verify", "--id", runId);
  const result = async (integrate: Record<string, unknown>) => ({
    env,
    repo,
    runId,
    runDir,
    state: JSON.parse(await Deno.readTextFile(join(runDir, "state.json"))),
    prepare: prepare.json,
    verify: verify.json,
    integrate,
  });
  if (verify.json.passed !== true) return await result({});
  const review = join(env.dir, "review.json");
  await writeJson(review, {
    schemaVersion: 1,
    verdict: "approve",
    diffSha256: verify.json.diffSha256,
    findings: [],
    verificationGaps: [],
    summary: "the project's own tests pass",
  });
  const approve = await spot(
    env,
    repo,
    "approve",
    "--id",
    runId,
    "--review",
    review,
    "--message",
    `Fix ${c.fix.file}`,
  );
  assert.equal(approve.code, 0, approve.stderr);
  const integrate = await spot(env, repo, "integrate", "--id", runId);
  return await result(integrate.code === 0 ? integrate.json : { error: integrate.stderr });
}

/** The check's output as verify recorded it, for messages. */
export async function checkOutput(runDir: string): Promise<string> {
  const v = JSON.parse(await Deno.readTextFile(join(runDir, "verification.json")));
  return (v.commands ?? []).map((c: { stdout: string; stderr: string }) => c.stdout + c.stderr).join("\n");
}

export { sh };
