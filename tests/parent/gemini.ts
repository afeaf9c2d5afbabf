/**
 * The pinned Gemini CLI (.workers/) as a parent agent: headless (`-p`, stream-json), its model the scripted
 * model server (GOOGLE_GEMINI_BASE_URL), and `spot mcp` (stdio, started by Gemini from the `mcpServers` of its
 * settings.json) the tools it calls, which it offers its model as `mcp_spot_spot_prepare`. Gemini is no
 * parent spot meters: `spot_parent_meter` says so (`available: false`) rather than failing.
 */
import { join } from "node:path";
import { spawnProcess } from "../../sandbox/spawn.ts";
import { CLI, ROOT } from "../helpers.ts";
import type { ParentOptions, ParentRun } from "./claude.ts";

const KEY = "sk-parent-not-a-real-key";

export async function runGeminiParent(binary: string, o: ParentOptions): Promise<ParentRun> {
  const home = join(o.env.dir, "parent-home");
  await Deno.mkdir(join(home, ".gemini"), { recursive: true });
  const serverEnv: Record<string, string> = { ...o.env.env, PARENT_AGENT: "gemini" };
  const denoDir = Deno.env.get("DENO_DIR");
  if (denoDir) serverEnv.DENO_DIR = denoDir;
  const settings = {
    mcpServers: {
      spot: {
        command: Deno.execPath(),
        args: ["run", "--allow-all", "--no-prompt", "--config", join(ROOT, "deno.json"), CLI, "mcp"],
        env: serverEnv,
        timeout: o.timeoutMs,
        trust: true,
      },
    },
    privacy: { usageStatisticsEnabled: false },
    telemetry: { enabled: false },
    general: { enableAutoUpdate: false, enableAutoUpdateNotification: false, maxAttempts: 2 },
    security: { auth: { selectedType: "gemini-api-key" }, folderTrust: { enabled: false } },
    // spot's tools and nothing else of consequence: the parent delegates, it does not edit or run commands.
    tools: { exclude: ["run_shell_command", "write_file", "replace", "web_fetch", "google_web_search"] },
  };
  await Deno.writeTextFile(join(home, ".gemini", "settings.json"), JSON.stringify(settings, null, 2));
  const env: Record<string, string> = {
    PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin",
    HOME: home,
    LANG: "C.UTF-8",
    GEMINI_API_KEY: KEY,
    GOOGLE_GEMINI_BASE_URL: o.modelUrl,
  };
  const r = await spawnProcess(
    [
      binary,
      ...["-p", o.prompt, "--output-format", "stream-json", "-m", "scripted-model"],
      ...["--approval-mode", "yolo", "--skip-trust"],
    ],
    { cwd: o.cwd, env, timeoutMs: o.timeoutMs },
  );
  const events = r.stdout.split("\n").filter((l) => l.startsWith("{")).map((l) => {
    try {
      return JSON.parse(l) as Record<string, unknown>;
    } catch {
      return {};
    }
  });
  const session = String(events.find((e) => e.type === "init")?.session_id ?? "");
  // The answer after the last tool result, streamed as assistant message deltas.
  const lastTool = events.findLastIndex((e) => e.type === "tool_result");
  const answer = events.slice(lastTool + 1)
    .filter((e) => e.type === "message" && e.role === "assistant")
    .map((e) => String(e.content ?? "")).join("");
  return {
    session,
    exitCode: r.exitCode,
    timedOut: r.timedOut,
    stdout: r.stdout,
    stderr: r.stderr,
    final: answer || undefined,
  };
}
