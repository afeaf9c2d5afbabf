/**
 * Looking at runs and after them (inspect, list, diff, discard, gc), the parent meter, and the machine
 * (detect, sandbox, dashboard).
 */
import { lazy } from "../base/lazy.ts";
import { RUN_STATUSES } from "../schemas/constants.ts";
import { flag, number, text } from "./field.ts";
import { json, positiveInt, RUN_ERRORS, runId, sandbox } from "./common.ts";
import { verb } from "./verb.ts";

const verbs = {
  inspect: () => lazy<typeof import("../verbs/inspect.ts")>("../verbs/inspect.ts", import.meta.url),
  query: () => lazy<typeof import("../verbs/query.ts")>("../verbs/query.ts", import.meta.url),
  diff: () => lazy<typeof import("../verbs/diff.ts")>("../verbs/diff.ts", import.meta.url),
  meter: () => lazy<typeof import("../verbs/parent_meter.ts")>("../verbs/parent_meter.ts", import.meta.url),
  detect: () => lazy<typeof import("../verbs/detect.ts")>("../verbs/detect.ts", import.meta.url),
  sandbox: () => lazy<typeof import("../verbs/sandbox.ts")>("../verbs/sandbox.ts", import.meta.url),
  serve: () => lazy<typeof import("../serve/mod.ts")>("../serve/mod.ts", import.meta.url),
  discard: () => lazy<typeof import("../lifecycle/discard.ts")>("../lifecycle/discard.ts", import.meta.url),
  gc: () => lazy<typeof import("../upkeep/gc.ts")>("../upkeep/gc.ts", import.meta.url),
};

export const RUN_VIEW_VERBS = [
  verb({
    name: "inspect",
    summary: "Show a run's state, verification, review and usage (a summary on a terminal)",
    input: { runId, json },
    errors: ["RUN_NOT_FOUND"],
    annotations: { readOnly: true, idempotent: true },
    // Reads only the run's directory: no config to load (config/context.ts refuses a read of it).
    loadConfig: false,
    human: true,
    looks: true,
    examples: ["spot inspect --id run-20261201-101500-a1b2c3"],
    run: async (ctx, i) => (await verbs.inspect()).inspectRun(ctx, i.runId),
  }),
  verb({
    name: "list",
    summary: "List runs (a table on a terminal)",
    about: "Newest first, 200 at most unless limit or all says otherwise",
    input: {
      status: text("only runs in this status", { values: RUN_STATUSES }),
      caller: text("only runs from this caller (claude-code, codex, cli, ...)"),
      running: flag("only active runs"),
      limit: number("show the newest N runs (default 200)", { int: true, min: 0, parse: positiveInt }),
      offset: number("skip the N newest matching runs first", { int: true, min: 0, parse: positiveInt }),
      all: flag("show every run, however many"),
      json,
    },
    errors: [],
    annotations: { readOnly: true, idempotent: true },
    human: true,
    looks: true,
    examples: ["spot list --running --limit 20"],
    run: async (ctx, i) => (await verbs.query()).listRuns(ctx, i),
  }),
  verb({
    name: "diff",
    summary:
      "Show the verified diff, or with --hunks only what the review guide asks to read (coloured on a terminal)",
    input: { runId, hunks: flag("only the hunks of the review guide (what tier A or B asks to read)"), json },
    errors: [...RUN_ERRORS],
    annotations: { readOnly: true, idempotent: true },
    human: true,
    looks: true,
    examples: ["spot diff --id run-20261201-101500-a1b2c3 --hunks"],
    run: async (ctx, i) => (await verbs.diff()).diffRun(ctx, i.runId, { hunks: i.hunks === true }),
  }),
  verb({
    name: "discard",
    summary:
      "Drop an unfinished run: its diff saved to diff.patch, worktree and branch removed, its slot freed",
    about:
      "The run ends discarded; refused for a run that landed or succeeded, or while a process works on it",
    output: { DiscardResult: "lifecycle/discard.ts" },
    input: { runId, json },
    human: true,
    errors: [...RUN_ERRORS],
    annotations: { destructive: true, idempotent: true },
    examples: ["spot discard --id run-20261201-101500-a1b2c3"],
    run: async (ctx, i) => (await verbs.discard()).discardRun(ctx, i.runId),
  }),
  verb({
    name: "gc",
    summary:
      "Collect ended runs older than AGE (worktrees, branches) and what killed steps left; previews first",
    about: "Every kept run is listed with the reason; the run directories stay",
    input: {
      confirm: flag("collect them (a preview otherwise)"),
      olderThan: text("untouched for this long: 30m, 12h, 7d (default 7d)", { cli: "--older-than <age>" }),
      json,
    },
    human: true,
    errors: [],
    annotations: { destructive: true, idempotent: true },
    examples: ["spot gc --older-than 7d"],
    run: async (ctx, i) =>
      (await verbs.gc()).gcRuns(ctx, { confirm: i.confirm === true, olderThan: i.olderThan }),
  }),
  verb({
    name: "parent-meter",
    alias: "codex-meter",
    summary: "Snapshot the parent agent's session usage (run it before planning; pass the file to prepare)",
    input: {
      output: text("write the snapshot here (for prepare's usageStart)", { complete: "file" }),
    },
    errors: ["PARENT_METER_FAILED"],
    cwd: true,
    examples: ["spot parent-meter --output usage-start.json"],
    run: async (ctx, i) => (await verbs.meter()).parentMeter(ctx, { output: i.output }),
  }),
  verb({
    name: "detect",
    summary: "Probe the worker CLIs installed here (cached for 10 minutes)",
    input: { refresh: flag("ignore the cache and probe again"), json },
    errors: [],
    annotations: { readOnly: true },
    human: true,
    looks: true,
    examples: ["spot detect --refresh"],
    run: async (ctx, i) => (await verbs.detect()).detectWorkers(ctx, { refresh: i.refresh === true }),
  }),
  verb({
    name: "sandbox",
    summary: "Show which OS sandbox a run gets here, why, and what it enforces (exit 4 if none)",
    input: {
      sandbox: { ...sandbox, help: "check this choice instead of the config's: auto, bwrap or none" },
      json,
    },
    human: true,
    errors: ["SANDBOX_UNAVAILABLE"],
    annotations: { readOnly: true, idempotent: true },
    looks: true,
    examples: ["spot sandbox --sandbox bwrap"],
    run: async (ctx, i) => (await verbs.sandbox()).describeSandbox(ctx, { sandbox: i.sandbox }),
  }),
  verb({
    name: "dashboard",
    summary: "Write the dashboard as one self-contained HTML file",
    input: {
      output: text("where to write it (default: dashboard.html in the state directory)", {
        complete: "file",
      }),
    },
    errors: [],
    annotations: { idempotent: true },
    cwd: true,
    examples: ["spot dashboard --output dashboard.html"],
    run: async (ctx, i) => (await verbs.serve()).dashboardSnapshot(ctx, i.output),
  }),
] as const;
