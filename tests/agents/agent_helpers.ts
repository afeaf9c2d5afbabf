/** Plumbing for the agent tests: a scenario whose worker takes its time, and waiting for a line. */
import { processAlive } from "../../sandbox/spawn.ts";
import { readProcesses } from "../../worker/process_tree.ts";
import { type CliResult, spot, type SpotEnv } from "../helpers.ts";
import { demoScenario, FIXED_ADD, type Scenario } from "../scenario.ts";

export const REPLAY = ["--profile", "replay", "--sandbox", "none"];

/** The demo fix, done slowly enough that a test can look at the worker while it runs. */
export function slowScenario(dir: string, sleepMs: number): Promise<Scenario> {
  return demoScenario(dir, [
    { op: "say", text: "Reading add.ts." },
    { op: "sleep", ms: sleepMs },
    { op: "write", path: "add.ts", content: FIXED_ADD },
    { op: "usage", input: 100, output: 20, cacheRead: 0, cacheWrite: 0, costUsd: 0.001 },
    { op: "say", text: "Fixed add()." },
  ]);
}

export function startArgs(name: string, sc: Scenario, ...extra: string[]): string[] {
  return ["agent", "start", name, "--task", sc.taskFile, ...REPLAY, "--model", sc.episodeFile, ...extra];
}

/** Polls until the line is no longer RUNNING (or the time is up); returns the last line. */
export async function pollUntilSettled(
  env: SpotEnv,
  cwd: string,
  name: string,
  ms = 60_000,
): Promise<string> {
  const end = Date.now() + ms;
  let line = "";
  while (Date.now() < end) {
    const r: CliResult = await spot(env, cwd, "agent", "poll", name);
    line = r.stdout.trim();
    if (!line.startsWith("RUNNING")) return line;
    await new Promise((r) => setTimeout(r, 300));
  }
  return line;
}

/** Members of these process groups that are still alive (zombies are dead). */
export function groupMembers(groups: number[]): number[] {
  const wanted = new Set(groups);
  return readProcesses().filter((p) => wanted.has(p.pgrp) && p.state !== "Z").map((p) => p.pid);
}

export { processAlive };
