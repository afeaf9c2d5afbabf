/** What the job tests share: a repository, replay episodes, tasks, and a job run to its end through the CLI. */
import assert from "node:assert/strict";
import { join } from "node:path";
import {
  type CliResult,
  makeRepo,
  spot,
  type SpotEnv,
  spotEnv,
  writeEpisode,
  writeJson,
} from "../helpers.ts";

export const FILES = {
  "api/x.ts": "export const x = 1;\n",
  "ui/y.ts": "export const y = 1;\n",
  "README.md": "# r\n",
};

export async function episode(dir: string, name: string, ops: Record<string, unknown>[]): Promise<string> {
  const file = join(dir, `${name}.jsonl`);
  await writeEpisode(file, [...ops, {
    op: "usage",
    input: 10,
    output: 5,
    cacheRead: 0,
    cacheWrite: 0,
    costUsd: 0,
  }]);
  return file;
}

export const say = (text: string) => ({ op: "say", text });
export const write = (path: string, content: string) => ({ op: "write", path, content });
/** The worker's result (schemas/job/result.ts), as its final text. */
export const result = (value: Record<string, unknown>) =>
  say("Done.\n```json\n" + JSON.stringify({ status: "succeeded", ...value }) + "\n```");
export const approve = (...ids: string[]) =>
  result({
    summary: "looks right",
    review: ids.map((id) => ({ taskId: id, fingerprint: `{{fingerprint:${id}}}`, verdict: "approve" })),
  });
export const replay = (id: string) => ({ profile: "replay", id });

export async function setup(sandbox: "none" | "bwrap" = "none") {
  const env = await spotEnv({ maxConcurrentRuns: 16, sandbox });
  const repo = await makeRepo(FILES, env.dir);
  return { env, repo };
}

export function task(id: string, role: string, extra: Record<string, unknown> = {}) {
  return { id, role, task: `Do the ${id} part`, acceptance: [`${id} done`], ...extra };
}

export async function fourTasks(dir: string, builderUi: Record<string, unknown>[]) {
  return [
    task("scout", "scout", {
      model: replay(
        await episode(dir, "scout", [
          result({ summary: "x lives in api/x.ts", brief: "x lives in api/x.ts" }),
        ]),
      ),
    }),
    task("api", "builder", {
      after: ["scout"],
      ownership: ["api"],
      checks: [{ id: "x", argv: ["grep", "-rq", "x = 2", "."] }],
      model: replay(
        await episode(dir, "api", [
          write("api/x.ts", "export const x = 2;\n"),
          result({ summary: "x is 2", changedFiles: ["api/x.ts"] }),
        ]),
      ),
    }),
    task("ui", "builder", {
      after: ["scout"],
      ownership: ["ui/"],
      noChecksReason: "a constant",
      model: replay(await episode(dir, "ui", builderUi)),
    }),
    task("review", "reviewer", {
      after: ["api", "ui"],
      reviewOf: "api",
      model: replay(await episode(dir, "review", [approve("api")])),
    }),
  ];
}

export async function init(env: SpotEnv, repo: string, job: Record<string, unknown>): Promise<CliResult> {
  const file = join(env.dir, `job-${crypto.randomUUID()}.json`);
  await writeJson(file, { approval: "the test", cwd: repo, noIntegratedChecksReason: "test", ...job });
  return await spot(env, repo, "job", "init", file);
}

export async function runToEnd(env: SpotEnv, repo: string, jobId: string): Promise<CliResult> {
  const start = await spot(env, repo, "job", "start", jobId);
  assert.equal(start.code, 0, start.stderr);
  return await waitToEnd(env, repo, jobId);
}

/**
 * `spot job wait` for up to two minutes, then until the coordinator has exited: wait returns once every task
 * is recorded, a moment before the coordinator lets go of the job (a repair or resume right after would race it).
 */
export async function waitToEnd(env: SpotEnv, repo: string, jobId: string): Promise<CliResult> {
  const done = await spot(env, repo, "job", "wait", jobId, "--timeout-ms", "120000");
  for (let i = 0; i < 100; i++) {
    const status = await spot(env, repo, "job", "status", jobId);
    if (status.json.coordinatorAlive === false) break;
    await new Promise((r) => setTimeout(r, 100));
  }
  return done;
}

export const code = (r: CliResult) => (r.json.error as { code: string } | undefined)?.code;
