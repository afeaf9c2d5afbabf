/**
 * Plumbing for the slot and leftover tests: a tiny repository whose check is a quick `grep` (so a loop costs
 * spot's own time, not a test runner's), episodes that fix it, break it or take their time, and the run's
 * state read straight from disk.
 */
import { join } from "node:path";
import { readJsonLines } from "../../store/files.ts";
import { spawnProcess } from "../../sandbox/spawn.ts";
import {
  CLI,
  CLI_FLAGS,
  makeRepo,
  ROOT,
  sh,
  spot,
  type SpotEnv,
  writeEpisode,
  writeJson,
} from "../helpers.ts";
import { BUGGY_ADD, FIXED_ADD } from "../scenario.ts";

export const WRONG_ADD = "export function add(a: number, b: number): number {\n  return a * b;\n}\n";

export interface Bench {
  repo: string;
  taskFile: string;
  episodes: { fix: string; wrong: string; slow: string; slowCheck: string };
  slowTask: string;
}

/** The repository, a contract whose check greps for the fix, and the episodes the tests play. */
export async function bench(env: SpotEnv, name = "bench"): Promise<Bench> {
  const dir = join(env.dir, name);
  await Deno.mkdir(dir, { recursive: true });
  const repo = await makeRepo({ "add.ts": BUGGY_ADD, "README.md": "# bench\n" }, dir);
  const contract = (argv: string[]) => ({
    schemaVersion: 1,
    repositoryRoot: repo,
    goal: "Fix add() so that it returns the sum of its two arguments",
    allowedPaths: ["add.ts"],
    acceptanceCriteria: ["add(2, 3) returns 5"],
    verification: [{ argv, timeoutSeconds: 120 }],
    risk: "low",
  });
  const taskFile = join(dir, "task.json");
  // The check names no file of the repository: a check's own files are locked (VERIFICATION_SCRIPT_CHANGED).
  await writeJson(taskFile, contract(["grep", "-rq", "--include=*.ts", "a + b", "."]));
  // The same contract with a check that naps first: long enough to kill `spot verify` inside it.
  const slowTask = join(dir, "slow-task.json");
  await writeJson(slowTask, contract(["sh", "-c", "sleep 60; grep -rq --include=*.ts 'a + b' ."]));
  const episode = async (file: string, lines: Record<string, unknown>[]) => {
    await writeEpisode(join(dir, file), lines);
    return join(dir, file);
  };
  return {
    repo,
    taskFile,
    slowTask,
    episodes: {
      fix: await episode("fix.jsonl", [{ op: "write", path: "add.ts", content: FIXED_ADD }, {
        op: "say",
        text: "Fixed.",
      }]),
      wrong: await episode("wrong.jsonl", [
        { op: "write", path: "add.ts", content: WRONG_ADD },
        { op: "say", text: "Done." },
        // A revision turn fixes it (a revise that changed nothing would fail REVISION_NO_CHANGE).
        { op: "write", path: "add.ts", content: FIXED_ADD, phase: "revise" },
      ]),
      slow: await episode("slow.jsonl", [
        { op: "write", path: "add.ts", content: FIXED_ADD },
        { op: "say", text: "Napping." },
        { op: "sleep", ms: 120_000 },
      ]),
      slowCheck: await episode("slow-check.jsonl", [{ op: "write", path: "add.ts", content: FIXED_ADD }]),
    },
  };
}

/** `spot prepare` with the replay worker playing `episode`; returns the run id or throws with spot's error. */
export async function prepareRun(
  env: SpotEnv,
  b: Bench,
  episode: string,
  task = b.taskFile,
): Promise<string> {
  const r = await spot(
    env,
    b.repo,
    "prepare",
    "--task",
    task,
    "--profile",
    "replay",
    "--model",
    episode,
    "--sandbox",
    "none",
  );
  if (r.code !== 0) throw new Error(`prepare failed (${r.code}): ${r.stderr}`);
  return String(r.json.runId);
}

export async function state(env: SpotEnv, runId: string): Promise<Record<string, unknown>> {
  return JSON.parse(await Deno.readTextFile(join(env.stateDir, "runs", runId, "state.json")));
}

export async function exists(path: string): Promise<boolean> {
  return (await Deno.stat(path).catch(() => null)) !== null;
}

export async function waitFor(what: string, check: () => Promise<boolean>, ms = 60_000): Promise<void> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`Timed out waiting for ${what}`);
}

/** Starts `spot <args>` as a real process, returning its pid and its end, without waiting for it. */
export function startSpot(env: SpotEnv, cwd: string, ...args: string[]) {
  let pid = 0;
  const argv = [
    Deno.execPath(),
    "run",
    ...CLI_FLAGS,
    "--no-prompt",
    "--config",
    join(ROOT, "deno.json"),
    CLI,
    ...args,
  ];
  const done = spawnProcess(argv, { cwd, env: env.env, onSpawn: (p) => pid = p, reapGroup: false });
  return { pid: () => pid, done };
}

/** Whether the run's events hold one of this type yet. */
export async function hasEvent(env: SpotEnv, runId: string, type: string, match?: RegExp): Promise<boolean> {
  const events = await readJsonLines<Record<string, unknown>>(
    join(env.stateDir, "runs", runId, "events.jsonl"),
  )
    .catch(() => []);
  return events.some((e) => e.type === type && (!match || match.test(JSON.stringify(e))));
}

/** The worktree paths `git worktree list` names in the repository, the main checkout left out. */
export async function extraWorktrees(repo: string): Promise<string[]> {
  const text = await sh(repo, "git", "worktree", "list", "--porcelain");
  return text.split("\n").filter((l) => l.startsWith("worktree ")).map((l) => l.slice(9)).filter((p) =>
    p !== repo
  );
}

export { FIXED_ADD, sh, spot };
