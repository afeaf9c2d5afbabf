/**
 * The demo scenario: a tiny repo whose test fails, a contract to fix it, and
 * a replay episode that does. Used by `deno task demo` and by the tests.
 */
import { join } from "node:path";
import { makeRepo, spot, type SpotEnv, writeEpisode, writeJson } from "./helpers.ts";

export const BUGGY_ADD = "export function add(a: number, b: number): number {\n  return a - b;\n}\n";
export const FIXED_ADD = "export function add(a: number, b: number): number {\n  return a + b;\n}\n";
export const ADD_TEST = [
  'import { add } from "./add.ts";',
  "",
  'Deno.test("add() adds two numbers", () => {',
  "  const got = add(2, 3);",
  "  if (got !== 5) throw new Error(`expected 5, got ${got}`);",
  "});",
  "",
].join("\n");

export interface Scenario {
  repo: string;
  taskFile: string;
  episodeFile: string;
}

export async function demoScenario(dir: string, episode?: Record<string, unknown>[]): Promise<Scenario> {
  const repo = await makeRepo({ "add.ts": BUGGY_ADD, "add_test.ts": ADD_TEST, "README.md": "# demo\n" }, dir);
  const taskFile = join(dir, "task.json");
  await writeJson(taskFile, {
    schemaVersion: 1,
    goal: "Fix add() so that it returns the sum of its two arguments",
    allowedPaths: ["add.ts"],
    forbiddenPaths: [],
    lockedPaths: ["add_test.ts"],
    constraints: ["Keep the function signature"],
    acceptanceCriteria: ["add(2, 3) returns 5", "add_test.ts passes unchanged"],
    verification: [{
      argv: ["deno", "test", "--no-config", "--no-lock", "add_test.ts"],
      timeoutSeconds: 120,
    }],
    requiredCapabilities: ["text", "code"],
    risk: "low",
    difficulty: "low",
    domain: "algorithm",
  });
  const episodeFile = join(dir, "fix-add.jsonl");
  await writeEpisode(
    episodeFile,
    episode ?? [
      { op: "say", text: "Reading add.ts; the operator is wrong." },
      { op: "write", path: "add.ts", content: FIXED_ADD },
      { op: "usage", input: 1800, output: 240, cacheRead: 600, cacheWrite: 0, costUsd: 0.0009 },
      { op: "say", text: "Changed the subtraction to an addition in add()." },
    ],
  );
  return { repo, taskFile, episodeFile };
}

/** `spot prepare` of a scenario with the replay worker; returns the run id, or throws with spot's error. */
export async function prepareScenario(env: SpotEnv, sc: Scenario, ...extra: string[]): Promise<string> {
  const r = await spot(
    env,
    sc.repo,
    "prepare",
    "--task",
    sc.taskFile,
    "--profile",
    "replay",
    "--model",
    sc.episodeFile,
    ...extra,
  );
  if (r.code !== 0) throw new Error(`prepare failed (${r.code}): ${r.stderr}`);
  return String(r.json.runId);
}
