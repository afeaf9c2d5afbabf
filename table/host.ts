/**
 * The verbs about spot itself rather than a run: the dashboard server and the tmux monitor, the config, the
 * MCP server, the skill, completions. Most are the CLI's alone: a server or a terminal a parent agent has no
 * use for over MCP.
 */
import { lazy } from "../base/lazy.ts";
import { join } from "../base/path.ts";
import { SpotError } from "../errors.ts";
import { flag, number, text } from "./field.ts";
import { bareVerb, hostVerb, verb } from "./verb.ts";

const serve = () => lazy<typeof import("../serve/mod.ts")>("../serve/mod.ts", import.meta.url);
const config = () => lazy<typeof import("../verbs/config.ts")>("../verbs/config.ts", import.meta.url);
const skill = () =>
  lazy<typeof import("../verbs/skill_install.ts")>("../verbs/skill_install.ts", import.meta.url);

/** What `spot complete` lists, and where each lives under the state directory. */
const NAMES = { runs: "runs", agents: "agents", jobs: "jobs" } as const;

/** A port as typed: 0 to 65535 (0 asks the system for a free one). */
function port(value: string): number {
  if (!/^\d{1,5}$/.test(value) || Number(value) > 65_535) {
    throw new SpotError(
      "CLI_USAGE",
      `Invalid --port "${value.slice(0, 20)}": expected a number from 0 to 65535`,
    );
  }
  return Number(value);
}

export const HOST_VERBS = [
  verb({
    name: "serve",
    summary: "Serve the live dashboard (loopback only unless --host says otherwise)",
    input: {
      port: text("port to listen on", { default: "7317" }),
      host: text("address to bind", { cli: "--host <address>", default: "127.0.0.1" }),
      open: flag("do not open a browser", { cli: "--no-open" }),
    },
    errors: ["SERVE_FAILED"],
    annotations: { long: true, readOnly: true },
    faces: ["cli"],
    examples: ["spot serve --port 7317"],
    run: async (ctx, i, io) => {
      const { parsePort, serveUntilStopped } = await serve();
      // A server's log, on stderr while it runs (a non-loopback warning must not wait for the end).
      const options = { port: parsePort(i.port ?? "7317"), host: i.host, open: i.open };
      return await serveUntilStopped(ctx, options, (line) => io.log(`[spot serve] ${line}`));
    },
  }),
  verb({
    name: "monitor",
    summary: "Follow every active run's worker.log in tmux panes",
    input: {
      list: flag("only list the runs it would follow"),
      kill: flag("close the monitor's tmux session"),
    },
    errors: ["MONITOR_FAILED"],
    faces: ["cli"],
    looks: (i) => i.list === true,
    examples: ["spot monitor --list"],
    run: async (ctx, i) => (await serve()).monitorRuns(ctx, i),
  }),
  bareVerb({
    name: "config path",
    summary: "Print the config file's path",
    input: {},
    errors: [],
    annotations: { readOnly: true, idempotent: true },
    examples: ["spot config path"],
    bare: async (_i, io) => (await config()).configPath(io.env),
  }),
  bareVerb({
    name: "config show",
    summary: "Print the effective config, defaults filled in",
    about: "Writes the config with its defaults on first use",
    input: {},
    errors: ["CONFIG_INVALID"],
    annotations: { idempotent: true },
    examples: ["spot config show"],
    bare: async (_i, io) => (await config()).configShow(io.env, io.warn),
  }),
  bareVerb({
    name: "config validate",
    summary: "Check the config file; problems as file:line:col, exit 2",
    input: {},
    errors: ["CONFIG_INVALID"],
    annotations: { readOnly: true, idempotent: true },
    examples: ["spot config validate"],
    bare: async (_i, io) => (await config()).configValidate(io.env, io.warn),
  }),
  bareVerb({
    name: "config migrate",
    summary:
      "Rewrite the config with spot's names for the original pi-worker's keys (a backup is kept beside it)",
    input: {},
    errors: ["CONFIG_INVALID"],
    annotations: { idempotent: true },
    examples: ["spot config migrate"],
    bare: async (_i, io) => (await config()).configMigrate(io.env, io.warn),
  }),
  hostVerb({
    name: "mcp",
    summary: "Serve the loop as MCP tools and resources on stdin/stdout (for a parent agent's MCP client)",
    about: "With --http, over Streamable HTTP on loopback instead (docs/mcp.md)",
    input: {
      http: flag("serve over Streamable HTTP on loopback instead of stdio"),
      port: number("with --http: the port (default 7318; 0 picks a free one)", {
        int: true,
        min: 0,
        parse: port,
      }),
      token: text("with --http: require this bearer token (default: $SPOT_MCP_TOKEN when set)"),
    },
    errors: ["SERVE_FAILED"],
    faces: ["cli"],
    examples: ["spot mcp", "spot mcp --http --port 7318"],
  }),
  verb({
    name: "skill install",
    summary: "Copy the skill where the parent looks for skills; prints the PARENT_AGENT export to use",
    input: {
      for: text("claude-code (~/.claude/skills/spot) or codex ($CODEX_HOME/skills/spot)", {
        values: ["claude-code", "codex"],
        cli: "--for <parent>",
      }),
      dir: text("install here instead", { complete: "dir" }),
    },
    errors: [],
    faces: ["cli"],
    loadConfig: false,
    examples: ["spot skill install --for claude-code"],
    run: async (ctx, i, io) => {
      const result = await (await skill()).installSkill(ctx, { for: i.for, dir: i.dir });
      io.note(`spot: skill installed in ${result.installed}; use: ${result.export}`);
      return result;
    },
  }),
  hostVerb({
    name: "completions",
    summary: "Print a completion script for bash, zsh or fish",
    input: {
      shell: text("bash, zsh or fish", { required: true, cli: "<shell>", values: ["bash", "zsh", "fish"] }),
    },
    errors: [],
    faces: ["cli"],
    examples: ["spot completions bash"],
  }),
  bareVerb({
    name: "complete",
    summary: "Print the run ids, agent names or job ids a completion script offers, one a line",
    input: {
      kind: text("runs, agents or jobs", {
        required: true,
        cli: "<kind>",
        values: ["runs", "agents", "jobs"],
      }),
    },
    errors: [],
    annotations: { readOnly: true },
    faces: ["cli"],
    hidden: true,
    examples: ["spot complete runs"],
    bare: async (i, io) => {
      const { resolvePaths } = await lazy<typeof import("../store/paths.ts")>(
        "../store/paths.ts",
        import.meta.url,
      );
      const dir = NAMES[i.kind as keyof typeof NAMES];
      if (!dir) {
        throw new SpotError("CLI_USAGE", `Cannot complete "${i.kind}": expected runs, agents or jobs`);
      }
      const names: string[] = [];
      try {
        for (const entry of Deno.readDirSync(join(resolvePaths(io.env).stateRoot, dir))) {
          if (!entry.name.startsWith(".")) names.push(entry.name.replace(/\.json$/, ""));
        }
      } catch {
        // No state yet: nothing to offer.
      }
      for (const name of names.sort().reverse()) io.print(name);
      return { count: names.length };
    },
    text: () => "",
  }),
] as const;
