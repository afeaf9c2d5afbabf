/** `spot mcp --http` as a real subprocess: started on a free port, its URL read from stderr, stopped by SIGTERM. */
import { join } from "node:path";
import { spawnProcess } from "../../sandbox/spawn.ts";
import { CLI, ROOT, type SpotEnv } from "../helpers.ts";

/** Long enough for a cold `deno run` of the CLI and the SDK on a loaded two-core machine. */
const START_TIMEOUT_MS = 90_000;

export interface HttpServer {
  url: string;
  /** SIGTERM, then what the server printed and how it ended. */
  stop(): Promise<{ exitCode: number | null; stdout: string; stderr: string }>;
}

export async function startHttp(env: SpotEnv, cwd: string, ...args: string[]): Promise<HttpServer> {
  const stop = new AbortController();
  const url = Promise.withResolvers<string>();
  const argv = [Deno.execPath(), "run", "--allow-all", "--no-prompt", "--config", join(ROOT, "deno.json")];
  const done = spawnProcess([...argv, CLI, "mcp", "--http", "--port", "0", ...args], {
    cwd,
    env: env.env,
    signal: stop.signal,
    timeoutMs: 10 * 60_000,
    // It closes its sessions and prints its JSON on SIGTERM: give it time before SIGKILL.
    killGraceMs: 10_000,
    onStderrLine: (line) => {
      const m = /^\[spot mcp\] serving MCP on (http:\S+)/.exec(line);
      if (m) url.resolve(m[1]);
    },
  });
  done.then((r) => url.reject(new Error(`spot mcp --http ended before serving: ${r.stderr}`)));
  const timer = setTimeout(
    () => url.reject(new Error("spot mcp --http did not serve in time")),
    START_TIMEOUT_MS,
  );
  try {
    return {
      url: await url.promise,
      stop: async () => {
        stop.abort();
        return await done;
      },
    };
  } catch (error) {
    stop.abort();
    await done;
    throw error;
  } finally {
    clearTimeout(timer);
  }
}
