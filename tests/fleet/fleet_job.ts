/**
 * A job of builders and one reviewer, written for the fleet tests and the fleet bench: builder `b<i>` owns `b<i>/`,
 * sleeps (the replay `sleep` op) and writes `b<i>/f.ts`; the reviewer approves every builder. Plus the checks that
 * every task was taken over once and integrated once.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { coordinatorAlive, jobDir } from "../../graphs/store.ts";
import { resolvePaths } from "../../store/paths.ts";
import { makeRepo, sh, spot, type SpotEnv, writeEpisode, writeJson } from "../helpers.ts";

export const builderIds = (n: number) => Array.from({ length: n }, (_, i) => `b${i}`);

export async function jobRepo(env: SpotEnv, builders: number): Promise<string> {
  return await makeRepo(
    Object.fromEntries([
      ["README.md", "# fleet job\n"],
      ...builderIds(builders).map((id) => [`${id}/f.ts`, "1\n"]),
    ]),
    env.dir,
  );
}

const result = (value: Record<string, unknown>) => ({
  op: "say",
  text: "Done.\n```json\n" + JSON.stringify({ status: "succeeded", ...value }) + "\n```",
});

/** Writes the job file and creates the job; returns its id. `sleepMs` by builder id (default `sleepMs.all`). */
export async function createJob(
  env: SpotEnv,
  repo: string,
  options: {
    builders: number;
    sleepMs: Record<string, number>;
    reviewer?: boolean;
    concurrency?: number;
    /**
     * Builders whose worker, once started, writes its id and its directory (the attempt's worktree, named by
     * its run) to `started` and waits while `hold` exists; and whose
     * check, once the work is there, writes its id to `checked` and waits while `checkHold` exists.
     */
    gates?: {
      started: string;
      hold: (id: string) => string | null;
      checked?: string;
      checkHold?: (id: string) => string | null;
    };
  },
): Promise<string> {
  const ids = builderIds(options.builders);
  const tasks: Record<string, unknown>[] = [];
  const check = (id: string) => {
    const gate = options.gates?.checkHold?.(id);
    if (!gate) return ["grep", "-rq", `${id} done`, "."];
    const wait = `echo ${id} >> '${options.gates!.checked}'; while [ -e '${gate}' ]; do sleep 0.05; done`;
    return ["sh", "-c", `grep -rq '${id} done' . && { ${wait}; }`];
  };
  for (const id of ids) {
    const file = join(env.dir, `${id}.jsonl`);
    const hold = options.gates?.hold(id);
    const gate = hold
      ? [{
        op: "exec",
        argv: [
          "sh",
          "-c",
          `echo "${id} $PWD" >> '${options.gates!.started}'; while [ -e '${hold}' ]; do sleep 0.05; done`,
        ],
      }]
      : [];
    await writeEpisode(file, [
      ...gate,
      { op: "sleep", ms: options.sleepMs[id] ?? options.sleepMs.all ?? 0 },
      { op: "write", path: `${id}/f.ts`, content: `${id} done\n` },
      result({ summary: `${id} written`, changedFiles: [`${id}/f.ts`] }),
    ]);
    tasks.push({
      id,
      role: "builder",
      task: `Write ${id}/f.ts`,
      acceptance: [`${id}/f.ts says done`],
      ownership: [`${id}/`],
      checks: [{ id: "done", argv: check(id) }],
      model: { profile: "replay", id: file },
    });
  }
  if (options.reviewer !== false) {
    const file = join(env.dir, "review.jsonl");
    await writeEpisode(file, [
      result({
        summary: "all right",
        review: ids.map((id) => ({ taskId: id, fingerprint: `{{fingerprint:${id}}}`, verdict: "approve" })),
      }),
    ]);
    tasks.push({
      id: "review",
      role: "reviewer",
      task: "Review every builder",
      acceptance: ["each verdict given"],
      after: ids,
      model: { profile: "replay", id: file },
    });
  }
  const jobFile = join(env.dir, `job-${crypto.randomUUID()}.json`);
  await writeJson(jobFile, {
    approval: "the test",
    cwd: repo,
    allowWrites: true,
    noIntegratedChecksReason: "each builder has its check",
    config: { limits: { concurrency: options.concurrency ?? 12 } },
    tasks,
  });
  const created = await spot(env, repo, "job", "init", jobFile);
  assert.equal(created.code, 0, created.stderr);
  return String(created.json.jobId);
}

export async function startJob(env: SpotEnv, repo: string, jobId: string): Promise<void> {
  const started = await spot(env, repo, "job", "start", jobId);
  assert.equal(started.code, 0, started.stderr);
}

export async function waitJob(env: SpotEnv, repo: string, jobId: string, ms = 600_000) {
  // The wait's own bound, and room for the verb to say so.
  const done = await spot(
    { ...env, callTimeoutMs: ms + 120_000 },
    repo,
    "job",
    "wait",
    jobId,
    "--timeout-ms",
    String(ms),
  );
  // A wait that ran out says so (exit 0, waiting: true): the job did not end in the test's time, which is
  // not the property under test but must not read as one (a loaded machine took the job past 240 s once).
  assert.notEqual(done.json.waiting, true, `job ${jobId} still running after ${ms} ms: ${done.stdout}`);
  for (let i = 0; i < 100; i++) {
    const status = await spot(env, repo, "job", "status", jobId);
    if (status.json.coordinatorAlive === false) break;
    await new Promise((r) => setTimeout(r, 100));
  }
  return done;
}

/** Ends the job's coordinator if it still runs (a test that failed part way): by its pid, -9 after a grace. */
export async function stopCoordinator(env: SpotEnv, jobId: string): Promise<void> {
  const paths = resolvePaths((n) => env.env[n]);
  if (!(await coordinatorAlive(paths, jobId).catch(() => false))) return;
  const state = JSON.parse(await Deno.readTextFile(join(jobDir(paths, jobId), "state.json")));
  const pid = state.coordinator?.pid as number | undefined;
  if (!pid) return;
  const kill = (s: Deno.Signal) => {
    try {
      Deno.kill(pid, s);
    } catch {
      // gone
    }
  };
  kill("SIGTERM");
  for (let i = 0; i < 100 && await coordinatorAlive(paths, jobId); i++) {
    await new Promise((r) => setTimeout(r, 100));
  }
  if (await coordinatorAlive(paths, jobId)) kill("SIGKILL");
}

async function events(stateDir: string, runId: string): Promise<Record<string, unknown>[]> {
  const text = await Deno.readTextFile(join(stateDir, "runs", runId, "events.jsonl")).catch(() => "");
  return text.split("\n").filter(Boolean).map((l) => JSON.parse(l));
}

/** Every task's run took exactly one result over; `job integrate` lands one commit per builder, once. */
export async function assertOnceAndIntegrate(env: SpotEnv, repo: string, jobId: string, builders: number) {
  const ids = [...builderIds(builders), "review"];
  for (const id of ids) {
    const evs = await events(env.stateDir, `${jobId}.${id}`);
    const imported = evs.filter((e) => e.type === "fleet" && e.state === "imported");
    assert.equal(imported.length, 1, `${id} was taken over ${imported.length} times`);
  }
  // job status names the executor of each task, as the executor that ran its run's taken-over attempt.
  const status = await spot(env, repo, "job", "status", jobId);
  for (const t of status.json.tasks as { id: string; runId: string; executor?: string }[]) {
    const run = JSON.parse(await Deno.readTextFile(join(env.stateDir, "runs", t.runId, "state.json")));
    assert.equal(t.executor, run.fleet?.executor, `${t.id}: job status names its executor`);
    assert.match(String(t.executor), /\S/, `${t.id} ran on an executor`);
  }
  const head = await sh(repo, "git", "rev-parse", "HEAD");
  const integrated = await spot(env, repo, "job", "integrate", jobId);
  assert.equal(integrated.code, 0, integrated.stdout + integrated.stderr);
  const log = (await sh(repo, "git", "log", "--format=%s", `${head}..HEAD`)).split("\n").filter(Boolean);
  assert.equal(log.length, builders, log.join("\n"));
  for (const id of builderIds(builders)) {
    assert.equal(await Deno.readTextFile(join(repo, id, "f.ts")), `${id} done\n`);
  }
  const again = await spot(env, repo, "job", "integrate", jobId);
  const after = (await sh(repo, "git", "log", "--format=%s", `${head}..HEAD`)).split("\n").filter(Boolean);
  assert.equal(after.length, builders, `a second integrate landed more: ${again.stdout}`);
}
