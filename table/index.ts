/**
 * Where each verb is declared, by its first CLI word, so a well-formed call loads only its own table module
 * (the fast path in cli.ts; docs/performance.md). table/faces_test.ts holds this map to the table.
 */
import { lazy } from "../base/lazy.ts";
import type { AnyVerb } from "./verb.ts";

export const TABLE_MODULES = {
  loop: async () => (await lazy<typeof import("./loop.ts")>("./loop.ts", import.meta.url)).LOOP_VERBS,
  runs: async () => (await lazy<typeof import("./runs.ts")>("./runs.ts", import.meta.url)).RUN_VIEW_VERBS,
  host: async () => (await lazy<typeof import("./host.ts")>("./host.ts", import.meta.url)).HOST_VERBS,
  agent: async () => (await lazy<typeof import("./agent.ts")>("./agent.ts", import.meta.url)).AGENT_VERBS,
  job: async () => (await lazy<typeof import("./job.ts")>("./job.ts", import.meta.url)).JOB_VERBS,
  fleet: async () => (await lazy<typeof import("./fleet.ts")>("./fleet.ts", import.meta.url)).FLEET_VERBS,
} satisfies Record<string, () => Promise<readonly AnyVerb[]>>;

export type TableModule = keyof typeof TABLE_MODULES;

/** The module of every first word (and alias) a verb's CLI name starts with. */
export const MODULE_OF: Record<string, TableModule> = {
  doctor: "loop",
  prepare: "loop",
  run: "loop",
  verify: "loop",
  "self-review": "loop",
  revise: "loop",
  approve: "loop",
  integrate: "loop",
  report: "loop",
  cleanup: "loop",
  recover: "loop",
  discard: "runs",
  gc: "runs",
  inspect: "runs",
  list: "runs",
  diff: "runs",
  "parent-meter": "runs",
  "codex-meter": "runs",
  detect: "runs",
  sandbox: "runs",
  dashboard: "runs",
  serve: "host",
  monitor: "host",
  config: "host",
  mcp: "host",
  skill: "host",
  completions: "host",
  complete: "host",
  agent: "agent",
  job: "job",
  executor: "fleet",
};

/** What each group of verbs is about, for its help line (its verbs are listed after it). */
export const GROUPS: Record<string, string> = {
  config: "The config file",
  skill: "The skill a parent agent loads (skill/SKILL.md and its references)",
  agent: "Named background agents",
  job: "Task graphs",
  executor: "This machine in the fleet (docs/fleet.md)",
};
