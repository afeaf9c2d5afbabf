/** What the landing tests share: a run taken through prepare, run, verify and approve, ready to integrate. */
import assert from "node:assert/strict";
import { join } from "node:path";
import { sh, spot, type SpotEnv, writeEpisode, writeJson } from "../helpers.ts";

/** A contract for `repo` allowing `allowed`, with the given checks. */
export async function contract(
  env: SpotEnv,
  name: string,
  options: { allowed: string[]; checks: string[][]; timeoutSeconds?: number },
): Promise<string> {
  const file = join(env.dir, `${name}.task.json`);
  await writeJson(file, {
    schemaVersion: 1,
    goal: `Do the ${name} change`,
    allowedPaths: options.allowed,
    acceptanceCriteria: [`${name} done`],
    verification: options.checks.map((argv) => ({ argv, timeoutSeconds: options.timeoutSeconds ?? 60 })),
    risk: "low",
  });
  return file;
}

/** prepare → run → verify → approve with the replay worker writing `files`; returns the run id. */
export async function committedRun(
  env: SpotEnv,
  repo: string,
  taskFile: string,
  files: Record<string, string>,
  ...prepareArgs: string[]
): Promise<string> {
  const episode = join(env.dir, `episode-${crypto.randomUUID()}.jsonl`);
  await writeEpisode(episode, [
    ...Object.entries(files).map(([path, content]) => ({ op: "write", path, content })),
    { op: "say", text: "Done." },
  ]);
  const prep = await spot(
    env,
    repo,
    "prepare",
    "--task",
    taskFile,
    "--profile",
    "replay",
    "--model",
    episode,
    ...prepareArgs,
  );
  assert.equal(prep.code, 0, prep.stderr);
  const id = String(prep.json.runId);
  const run = await spot(env, repo, "run", "--id", id);
  assert.equal(run.code, 0, run.stderr);
  const verify = await spot(env, repo, "verify", "--id", id);
  assert.equal(verify.json.passed, true, verify.stdout + verify.stderr);
  const review = join(env.dir, `review-${id}.json`);
  await writeJson(review, {
    schemaVersion: 1,
    verdict: "approve",
    diffSha256: verify.json.diffSha256,
    findings: [],
    verificationGaps: [],
    summary: "ok",
  });
  const approve = await spot(env, repo, "approve", "--id", id, "--review", review, "--message", `Land ${id}`);
  assert.equal(approve.code, 0, approve.stderr);
  return id;
}

/** Every file of the checkout outside .git, with its bytes as text. */
export async function checkoutFiles(repo: string): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  const walk = async (dir: string, rel: string) => {
    for await (const e of Deno.readDir(dir)) {
      if (rel === "" && e.name === ".git") continue;
      const path = rel ? `${rel}/${e.name}` : e.name;
      if (e.isDirectory) await walk(join(dir, e.name), path);
      else {out[path] = e.isSymlink
          ? `-> ${await Deno.readLink(join(dir, e.name))}`
          : await Deno.readTextFile(join(dir, e.name));}
    }
  };
  await walk(repo, "");
  return out;
}

/** The worktrees git lists for `repo`, its own checkout first. */
export async function worktrees(repo: string): Promise<string[]> {
  return (await sh(repo, "git", "worktree", "list", "--porcelain")).split("\n")
    .filter((l) => l.startsWith("worktree ")).map((l) => l.slice("worktree ".length));
}

export const runState = async (env: SpotEnv, id: string) =>
  JSON.parse(await Deno.readTextFile(join(env.stateDir, "runs", id, "state.json")));

/**
 * The parent's contract changed after verify (every check's timeout made longer): what integrate then lands is no
 * longer what verify checked with these checks, so it checks the landed commit again in a scratch tree.
 */
export async function lengthenStoredChecks(runDir: string): Promise<void> {
  const file = join(runDir, "task.json");
  const stored = JSON.parse(await Deno.readTextFile(file));
  stored.verification = stored.verification.map((c: { timeoutSeconds: number }) => ({
    ...c,
    timeoutSeconds: 90,
  }));
  await Deno.writeTextFile(file, JSON.stringify(stored));
}
