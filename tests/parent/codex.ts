/**
 * The pinned Codex CLI (.workers/) as a parent agent: `codex exec --json`, its model the scripted model server
 * (a model provider of its own, Responses wire API), and `spot mcp` (stdio, started by Codex from its
 * config.toml's `[mcp_servers.spot]`) the tools it calls. Codex offers an MCP server's tools to its model as
 * one `namespace` tool (`mcp__spot`); the model server flattens it to `mcp__spot__spot_prepare`, as Claude
 * Code names them. The model slug is one Codex does not know: for a slug it knows (gpt-5.5) it hides MCP
 * tools behind its `tool_search` tool, which only OpenAI's own service answers.
 */
import { join } from "node:path";
import { spawnProcess } from "../../sandbox/spawn.ts";
import { CLI, ROOT } from "../helpers.ts";
import type { ParentOptions, ParentRun } from "./claude.ts";

const KEY = "sk-parent-not-a-real-key";
const q = (value: unknown) => JSON.stringify(value);

export async function runCodexParent(binary: string, o: ParentOptions): Promise<ParentRun> {
  const codexHome = join(o.env.dir, "parent-home", ".codex");
  await Deno.mkdir(codexHome, { recursive: true });
  const spot = ["run", "--allow-all", "--no-prompt", "--config", join(ROOT, "deno.json"), CLI, "mcp"];
  // The parent meter reads Codex's rollout of this session under CODEX_HOME; the session's id comes from
  // Codex itself (CODEX_THREAD_ID, given to the servers it starts).
  const serverEnv = { ...o.env.env, PARENT_AGENT: "codex", CODEX_HOME: codexHome };
  const denoDir = Deno.env.get("DENO_DIR");
  if (denoDir) Object.assign(serverEnv, { DENO_DIR: denoDir });
  const toolSeconds = Math.ceil(o.timeoutMs / 1000);
  await Deno.writeTextFile(
    join(codexHome, "config.toml"),
    [
      `model = "scripted-model"`,
      `model_provider = "scripted"`,
      `approval_policy = "never"`,
      `sandbox_mode = "read-only"`,
      `check_for_update_on_startup = false`,
      "",
      "[analytics]",
      "enabled = false",
      "",
      "[feedback]",
      "enabled = false",
      "",
      "[model_providers.scripted]",
      `name = "scripted"`,
      `base_url = ${q(`${o.modelUrl}/v1`)}`,
      `env_key = "SCRIPTED_PARENT_KEY"`,
      `wire_api = "responses"`,
      "request_max_retries = 1",
      "stream_max_retries = 1",
      "",
      "[mcp_servers.spot]",
      `command = ${q(Deno.execPath())}`,
      `args = ${q(spot)}`,
      // spot mcp is a `deno run` of the CLI: its start-up may take seconds on a loaded machine.
      "startup_timeout_sec = 120",
      // Wait for it before the first request (else the first turns see no spot tools), and fail without it.
      "required = true",
      `tool_timeout_sec = ${toolSeconds}`,
      `env = { ${Object.entries(serverEnv).map(([k, v]) => `${q(k)} = ${q(v)}`).join(", ")} }`,
      "",
    ].join("\n"),
  );
  const env: Record<string, string> = {
    PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin",
    HOME: join(o.env.dir, "parent-home"),
    LANG: "C.UTF-8",
    CODEX_HOME: codexHome,
    SCRIPTED_PARENT_KEY: KEY,
  };
  const r = await spawnProcess(
    [binary, "exec", "--json", "--skip-git-repo-check", "-C", o.cwd, o.prompt],
    { cwd: o.cwd, env, timeoutMs: o.timeoutMs },
  );
  const events = r.stdout.split("\n").filter((l) => l.startsWith("{")).map((l) => {
    try {
      return JSON.parse(l) as Record<string, unknown>;
    } catch {
      return {};
    }
  });
  const session = String(events.find((e) => e.type === "thread.started")?.thread_id ?? "");
  const messages = events.map((e) => e.item as Record<string, unknown> | undefined)
    .filter((item) => item?.type === "agent_message");
  const final = messages.length > 0 ? String(messages.at(-1)!.text) : undefined;
  return { session, exitCode: r.exitCode, timedOut: r.timedOut, stdout: r.stdout, stderr: r.stderr, final };
}
