/**
 * `spot serve`: the app on a real socket. Loopback unless the user names
 * another address (and then a warning says what that exposes); stopping ends
 * every event stream first, so shutdown never waits on an open browser tab.
 */
import { SpotError } from "../errors.ts";
import type { EnvReader, SpotPaths } from "../store/paths.ts";
import type { RunIndex } from "../store/run_index.ts";
import type { Config } from "../schemas/config.ts";
import { spawnProcess } from "../sandbox/spawn.ts";
import { which } from "../sandbox/which.ts";
import { createApp } from "./app.ts";
import type { Binding } from "./guard.ts";
import { preloadCharts } from "./plots/figure.ts";

export const DEFAULT_PORT = 7317;
export const DEFAULT_HOST = "127.0.0.1";
const LOOPBACK = new Set(["127.0.0.1", "localhost", "::1", "[::1]"]);

export interface ServeOptions {
  paths: SpotPaths;
  config: Config;
  env: EnvReader;
  index: RunIndex;
  host?: string;
  port?: number;
  pollMs?: number;
  heartbeatMs?: number;
  version?: string;
  /** Human notes (the URL, warnings); stderr in the CLI. */
  log?: (line: string) => void;
}

export interface RunningServer {
  url: string;
  binding: Binding;
  /** Ends the event streams, then the server; resolves when it has stopped. */
  stop(): Promise<void>;
  finished: Promise<void>;
}

export function isLoopback(host: string): boolean {
  return LOOPBACK.has(host.toLowerCase());
}

/** Refuses what cannot be an address to bind, before Deno sees it. */
export function checkHost(host: string): string {
  const bare = host.replace(/^\[(.*)\]$/, "$1");
  if (!/^[a-zA-Z0-9.:-]{1,253}$/.test(bare)) {
    throw new SpotError(
      "CLI_USAGE",
      `Invalid --host "${host.slice(0, 80)}": expected an IP address or host name`,
    );
  }
  return bare;
}

export function urlFor(binding: Binding): string {
  const name = binding.hostname.includes(":") ? `[${binding.hostname}]` : binding.hostname;
  const shown = name === "0.0.0.0" || name === "[::]" ? "127.0.0.1" : name;
  return `http://${shown}:${binding.port}/`;
}

export function startServer(o: ServeOptions): RunningServer {
  const hostname = checkHost(o.host ?? DEFAULT_HOST);
  const port = o.port ?? DEFAULT_PORT;
  if (!Number.isInteger(port) || port < 0 || port > 65_535) {
    throw new SpotError("CLI_USAGE", `Invalid --port "${port}": expected 0-65535`);
  }
  const log = o.log ?? (() => {});
  if (!isLoopback(hostname)) {
    log(
      `warning: serving on ${hostname}, not loopback: anyone who can reach this address can read run goals, ` +
        `diffs' file names and worker logs`,
    );
  }
  const binding: Binding = { hostname, port };
  const stopping = new AbortController();
  const app = createApp({ ...o, binding, signal: stopping.signal });
  let server: Deno.HttpServer<Deno.NetAddr>;
  try {
    server = Deno.serve({
      hostname,
      port,
      onListen: (addr) => {
        binding.port = addr.port;
      },
    }, app.fetch);
  } catch (error) {
    const busy = error instanceof Deno.errors.AddrInUse;
    throw new SpotError(
      "SERVE_FAILED",
      `Cannot serve on ${hostname}:${port}: ${busy ? "the port is in use (try --port)" : String(error)}`,
      { cause: error, details: { hostname, port } },
    );
  }
  binding.port = server.addr.port;
  const url = urlFor(binding);
  log(`spot dashboard on ${url} (Ctrl-C to stop)`);
  // After the URL is out: start-up stays as fast as before, and the first page finds the charts loaded.
  setTimeout(preloadCharts, 0);
  let stopped: Promise<void> | null = null;
  return {
    url,
    binding,
    finished: server.finished,
    stop() {
      stopped ??= (async () => {
        stopping.abort();
        await server.shutdown();
      })();
      return stopped;
    },
  };
}

/** Opens the URL in the desktop's browser when there is one; never waits for it. */
export function openBrowser(url: string, env: EnvReader): boolean {
  const mac = Deno.build.os === "darwin";
  if (!mac && !env("DISPLAY") && !env("WAYLAND_DISPLAY")) return false;
  const opener = which(mac ? "open" : "xdg-open", env("PATH") ?? "");
  if (!opener) return false;
  const passEnv: Record<string, string> = {};
  for (
    const name of [
      "PATH",
      "HOME",
      "DISPLAY",
      "WAYLAND_DISPLAY",
      "XDG_RUNTIME_DIR",
      "DBUS_SESSION_BUS_ADDRESS",
    ]
  ) {
    const value = env(name);
    if (value) passEnv[name] = value;
  }
  // The browser outlives the opener; keep its process group alive.
  void spawnProcess([opener, url], { env: passEnv, reapGroup: false }).catch(() => {});
  return true;
}
