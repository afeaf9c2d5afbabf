/**
 * The command table, part two: looking at runs (inspect, list, diff), the parent meter, the dashboard, the
 * config and the machine (detect, sandbox). Each `run` imports its module only when called.
 */
import { positiveInt } from "./parse.ts";
import { type CommandSpec, JSON_OPTION, maybeText, RUN_ID_OPTION, text } from "./spec.ts";
import { humanNote, printWarning, writeErr } from "./output.ts";
import { lazy } from "../base/lazy.ts";

/** The human views, each loaded only when a terminal shows it (cli/render/). */
const views = {
  list: () => lazy<typeof import("./render/list.ts")>("./render/list.ts", import.meta.url),
  inspect: () => lazy<typeof import("./render/inspect.ts")>("./render/inspect.ts", import.meta.url),
  diff: () => lazy<typeof import("./render/diff.ts")>("./render/diff.ts", import.meta.url),
  gc: async () => (await lazy<typeof import("./render/gc.ts")>("./render/gc.ts", import.meta.url)).renderGc,
  sandbox: async () =>
    (await lazy<typeof import("./render/sandbox.ts")>("./render/sandbox.ts", import.meta.url)).renderSandbox,
};

/** `spot config <name>`: these read the file themselves, so they work when it is broken. */
function configCommand(name: "path" | "show" | "validate" | "migrate", help: string): CommandSpec {
  return {
    name,
    help,
    run: async (_o, cli) => {
      const verbs = await lazy<typeof import("../verbs/config.ts")>("../verbs/config.ts", import.meta.url);
      const fn = {
        path: verbs.configPath,
        show: verbs.configShow,
        validate: verbs.configValidate,
        migrate: verbs.configMigrate,
      }[name];
      await cli.config(name, fn);
    },
  };
}

export const TOOL_COMMANDS: CommandSpec[] = [
  {
    name: "gc",
    help:
      "Collect ended runs older than AGE (worktrees, branches) and what killed steps left; previews first",
    view: views.gc,
    options: [
      { flags: "--confirm", help: "collect them (a preview otherwise)" },
      { flags: "--older-than <age>", help: "untouched for this long: 30m, 12h, 7d (default 7d)" },
    ],
    run: (o, cli) =>
      cli.verb(
        "gc",
        o,
        async (ctx) =>
          (await lazy<typeof import("../upkeep/gc.ts")>("../upkeep/gc.ts", import.meta.url)).gcRuns(ctx, {
            confirm: o.confirm === true,
            olderThan: maybeText(o, "olderThan"),
          }),
      ),
  },
  {
    name: "inspect",
    help: "Show a run's state, verification, review and usage (a summary on a terminal)",
    options: [RUN_ID_OPTION, JSON_OPTION],
    // Reads only the run's directory: no config to load (config/context.ts refuses a read of it).
    run: (o, cli) =>
      cli.humanOrJson("inspect", o, async (ctx) => {
        const verb = await lazy<typeof import("../verbs/inspect.ts")>("../verbs/inspect.ts", import.meta.url);
        return await verb.inspectRun(ctx, text(o, "id"));
      }, async (r, style) =>
        (await views.inspect()).renderInspect(r, style), { loadConfig: false, readOnly: true }),
  },
  {
    name: "list",
    help: "List runs (a table on a terminal)",
    options: [
      { flags: "--status <status>", help: "only runs in this status" },
      { flags: "--caller <caller>", help: "only runs from this caller" },
      { flags: "--running", help: "only active runs" },
      { flags: "--limit <n>", help: "show the newest N runs (default 200)", parse: positiveInt },
      { flags: "--offset <n>", help: "skip the N newest matching runs first", parse: positiveInt },
      { flags: "--all", help: "show every run, however many" },
      JSON_OPTION,
    ],
    run: (o, cli) =>
      cli.humanOrJson(
        "list",
        o,
        async (ctx) =>
          (await lazy<typeof import("../verbs/query.ts")>("../verbs/query.ts", import.meta.url)).listRuns(
            ctx,
            o as never,
          ),
        async (r, style) => (await views.list()).renderList(r, style),
        { readOnly: true },
      ),
  },
  {
    name: "parent-meter",
    alias: "codex-meter",
    help: "Snapshot the parent agent's session usage (run it before planning; pass the file to prepare)",
    options: [{ flags: "--output <file>", help: "write the snapshot here (for prepare --usage-start)" }],
    run: (o, cli) =>
      cli.verb(
        "parent-meter",
        o,
        async (ctx) =>
          (await lazy<typeof import("../verbs/parent_meter.ts")>("../verbs/parent_meter.ts", import.meta.url))
            .parentMeter(ctx, { output: maybeText(o, "output") }),
      ),
  },
  {
    name: "serve",
    help: "Serve the live dashboard (loopback only unless --host says otherwise)",
    options: [
      { flags: "--port <port>", help: "port to listen on", default: "7317" },
      { flags: "--host <address>", help: "address to bind", default: "127.0.0.1" },
      { flags: "--no-open", help: "do not open a browser" },
    ],
    run: (o, cli) =>
      cli.verb("serve", o, async (ctx) => {
        const { parsePort, serveUntilStopped } = await lazy<typeof import("../serve/mod.ts")>(
          "../serve/mod.ts",
          import.meta.url,
        );
        // A server's log, on stderr while it runs (a non-loopback warning must not wait for the end).
        const log = (line: string) => writeErr(`[spot serve] ${line}\n`);
        const options = { port: parsePort(text(o, "port")), host: text(o, "host"), open: o.open as boolean };
        return await serveUntilStopped(ctx, options, log);
      }, { interruptible: true }),
  },
  {
    name: "dashboard",
    help: "Write the dashboard as one self-contained HTML file",
    options: [{
      flags: "--output <file>",
      help: "where to write it (default: dashboard.html in the state directory)",
    }],
    run: (o, cli) =>
      cli.verb(
        "dashboard",
        o,
        async (ctx) =>
          (await lazy<typeof import("../serve/mod.ts")>("../serve/mod.ts", import.meta.url))
            .dashboardSnapshot(ctx, maybeText(o, "output")),
      ),
  },
  {
    name: "monitor",
    help: "Follow every active run's worker.log in tmux panes",
    options: [
      { flags: "--list", help: "only list the runs it would follow" },
      { flags: "--kill", help: "close the monitor's tmux session" },
    ],
    run: (o, cli) =>
      cli.verb(
        "monitor",
        o,
        async (ctx) =>
          (await lazy<typeof import("../serve/mod.ts")>("../serve/mod.ts", import.meta.url)).monitorRuns(
            ctx,
            o as never,
          ),
        { readOnly: o.list === true },
      ),
  },
  {
    name: "config",
    help: "Where the config is, what it holds, whether it is valid",
    commands: [
      configCommand("path", "Print the config file's path"),
      configCommand("show", "Print the effective config, defaults filled in"),
      configCommand("validate", "Check the config file; problems as file:line:col, exit 2"),
      configCommand(
        "migrate",
        "Rewrite the config with spot's names for the original pi-worker's keys (a backup is kept beside it)",
      ),
    ],
  },
  {
    name: "detect",
    help: "Probe the worker CLIs installed here (cached for 10 minutes)",
    options: [{ flags: "--refresh", help: "ignore the cache and probe again" }, JSON_OPTION],
    run: async (o, cli) => {
      const { detectWorkers } = await lazy<typeof import("../verbs/detect.ts")>(
        "../verbs/detect.ts",
        import.meta.url,
      );
      const { renderRegistry } = await lazy<typeof import("../registry/render.ts")>(
        "../registry/render.ts",
        import.meta.url,
      );
      await cli.humanOrJson(
        "detect",
        o,
        (ctx) => detectWorkers(ctx, { refresh: o.refresh === true }),
        (r) => renderRegistry(r.registry, r),
        { readOnly: true },
      );
    },
  },
  {
    name: "diff",
    help:
      "Show the verified diff, or with --hunks only what the review guide asks to read (coloured on a terminal)",
    options: [RUN_ID_OPTION, { flags: "--hunks", help: "only the hunks of the review guide" }, JSON_OPTION],
    run: (o, cli) =>
      cli.humanOrJson(
        "diff",
        o,
        async (ctx) =>
          (await lazy<typeof import("../verbs/diff.ts")>("../verbs/diff.ts", import.meta.url)).diffRun(
            ctx,
            text(o, "id"),
            { hunks: o.hunks === true },
          ),
        async (r, style) => (await views.diff()).renderDiff(r, style),
        { readOnly: true },
      ),
  },
  {
    name: "sandbox",
    help: "Show which OS sandbox a run gets here, why, and what it enforces (exit 4 if none)",
    view: views.sandbox,
    options: [{
      flags: "--sandbox <mode>",
      help: "check this choice instead of the config's: auto, bwrap or none",
    }],
    run: (o, cli) =>
      cli.verb(
        "sandbox",
        o,
        async (ctx) =>
          (await lazy<typeof import("../verbs/sandbox.ts")>("../verbs/sandbox.ts", import.meta.url))
            .describeSandbox(ctx, { sandbox: maybeText(o, "sandbox") }),
        { readOnly: true },
      ),
  },
  {
    name: "mcp",
    help: "Serve the loop as MCP tools and resources on stdin/stdout (for a parent agent's MCP client)",
    // Stdout is the protocol's: nothing else is printed there, not even the usual JSON when it ends.
    run: async (_o, cli) => {
      try {
        const { serveMcp } = await lazy<typeof import("../mcp/server.ts")>(
          "../mcp/server.ts",
          import.meta.url,
        );
        await serveMcp({ warn: printWarning });
      } catch (error) {
        await cli.fail(error);
      }
    },
  },
  {
    name: "skill",
    help: "The skill a parent agent loads (skill/SKILL.md and its references)",
    commands: [{
      name: "install",
      help: "Copy the skill where the parent looks for skills; prints the PARENT_AGENT export to use",
      options: [
        {
          flags: "--for <parent>",
          help: "claude-code (~/.claude/skills/spot) or codex ($CODEX_HOME/skills/spot)",
        },
        { flags: "--dir <dir>", help: "install here instead" },
      ],
      run: (o, cli) =>
        cli.verb("skill install", o, async (ctx) => {
          const verb = await lazy<typeof import("../verbs/skill_install.ts")>(
            "../verbs/skill_install.ts",
            import.meta.url,
          );
          const result = await verb.installSkill(ctx, { for: maybeText(o, "for"), dir: maybeText(o, "dir") });
          humanNote(`spot: skill installed in ${result.installed}; use: ${result.export}`);
          return result;
        }, { loadConfig: false }),
    }],
  },
];
