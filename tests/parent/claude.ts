/**
 * The pinned Claude Code CLI (.workers/) as a parent agent: headless (`-p`), its model the scripted model
 * server, and `spot mcp` (stdio, started by Claude Code itself from an `--mcp-config` file) its only tools.
 */
import { join } from "node:path";
import { spawnProcess } from "../../sandbox/spawn.ts";
import { CLI, ROOT, type SpotEnv } from "../helpers.ts";

const KEY = "sk-parent-not-a-real-key";

export interface ParentRun {
  exitCode: number | null;
  timedOut: boolean;
  stdout: string;
  stderr: string;
  /** The parent's session id (Claude Code: the `--session-id` it was given; Codex: its thread id). */
  session: string;
  /** The parent's last answer to its user. */
  final?: string;
}

export interface ParentOptions {
  env: SpotEnv;
  cwd: string;
  modelUrl: string;
  prompt: string;
  timeoutMs: number;
}

export async function runClaudeParent(binary: string, o: ParentOptions): Promise<ParentRun> {
  const home = join(o.env.dir, "parent-home");
  await Deno.mkdir(home, { recursive: true });
  const mcpConfig = join(o.env.dir, "parent-mcp.json");
  const session = crypto.randomUUID();
  const configDir = join(home, ".claude");
  const server = {
    type: "stdio",
    command: Deno.execPath(),
    args: ["run", "--allow-all", "--no-prompt", "--config", join(ROOT, "deno.json"), CLI, "mcp"],
    // The parent meter reads Claude Code's transcript of this session in the parent's config dir; the
    // session's id comes from Claude Code itself (CLAUDE_CODE_SESSION_ID, given to the servers it starts).
    env: {
      ...o.env.env,
      PARENT_AGENT: "claude-code",
      CLAUDE_CONFIG_DIR: configDir,
    },
  };
  await Deno.writeTextFile(mcpConfig, JSON.stringify({ mcpServers: { spot: server } }, null, 2));
  const env: Record<string, string> = {
    PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin",
    HOME: home,
    CLAUDE_CONFIG_DIR: configDir,
    LANG: "C.UTF-8",
    ANTHROPIC_BASE_URL: o.modelUrl,
    ANTHROPIC_API_KEY: KEY,
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1",
    DISABLE_AUTOUPDATER: "1",
    DISABLE_TELEMETRY: "1",
    DISABLE_ERROR_REPORTING: "1",
    CLAUDE_CODE_MAX_RETRIES: "1",
    // spot mcp is a `deno run` of the CLI: its start-up may take seconds on a loaded machine.
    MCP_TIMEOUT: "120000",
    // Headless, Claude Code sends its first request without waiting for MCP servers unless told to wait.
    MCP_CONNECTION_NONBLOCKING: "0",
    MCP_TOOL_TIMEOUT: String(o.timeoutMs),
  };
  const denoDir = Deno.env.get("DENO_DIR");
  if (denoDir) env.DENO_DIR = denoDir;
  const r = await spawnProcess([
    binary,
    ...["-p", o.prompt, "--output-format", "stream-json", "--verbose", "--model", "scripted-model"],
    ...["--mcp-config", mcpConfig, "--strict-mcp-config"],
    // spot's tools and nothing else: the parent delegates, it does not edit.
    ...[
      "--allowedTools",
      "mcp__spot",
      "--disallowedTools",
      "Bash,Edit,Write,Task,WebFetch,WebSearch",
    ],
    ...["--session-id", session],
  ], { cwd: o.cwd, env, timeoutMs: o.timeoutMs });
  const events = r.stdout.split("\n").filter((l) => l.startsWith("{")).map((l) => {
    try {
      return JSON.parse(l) as Record<string, unknown>;
    } catch {
      return {};
    }
  });
  const final = events.find((e) => e.type === "result")?.result;
  return {
    session,
    exitCode: r.exitCode,
    timedOut: r.timedOut,
    stdout: r.stdout,
    stderr: r.stderr,
    final: typeof final === "string" ? final : undefined,
  };
}
