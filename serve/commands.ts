/**
 * The verbs behind `spot serve`, `spot dashboard` and `spot monitor`, as
 * library calls over a context (cli.ts only parses flags and prints).
 */
import { resolve } from "../base/path.ts";
import { SpotError } from "../errors.ts";
import type { SpotContext } from "../store/context.ts";
import { runIndexFor } from "../store/run_index.ts";
import { DEFAULT_SESSION, monitor } from "./monitor.ts";
import { pathExists } from "../store/files.ts";
import { DEFAULT_HOST, DEFAULT_PORT, openBrowser, startServer } from "./server.ts";
import { writeSnapshot } from "./snapshot.ts";

export interface ServeFlags {
  port?: number;
  host?: string;
  open?: boolean;
}

/** Serves until `ctx.signal` aborts (Ctrl-C, SIGTERM), then stops cleanly. */
export async function serveUntilStopped(ctx: SpotContext, flags: ServeFlags, log: (line: string) => void) {
  const server = startServer({
    paths: ctx.paths,
    config: ctx.config,
    env: ctx.env,
    index: runIndexFor(ctx.paths),
    host: flags.host ?? DEFAULT_HOST,
    port: flags.port ?? DEFAULT_PORT,
    log,
  });
  const opened = flags.open !== false && openBrowser(server.url, ctx.env);
  await new Promise<void>((done) => {
    if (!ctx.signal || ctx.signal.aborted) return done();
    ctx.signal.addEventListener("abort", () => done(), { once: true });
  });
  await server.stop();
  return { url: server.url, host: server.binding.hostname, port: server.binding.port, opened, stopped: true };
}

export async function dashboardSnapshot(ctx: SpotContext, output?: string) {
  return await writeSnapshot({
    paths: ctx.paths,
    config: ctx.config,
    env: ctx.env,
    index: runIndexFor(ctx.paths),
    output: output === undefined ? undefined : resolve(ctx.cwd, output),
  });
}

export async function monitorRuns(ctx: SpotContext, flags: { list?: boolean; kill?: boolean }) {
  // `--list` only looks: where spot has never run there is nothing to follow, and no index is made.
  if (flags.list && !pathExists(ctx.paths.runsDir)) {
    return { session: ctx.env("PI_MONITOR_SESSION") || DEFAULT_SESSION, runs: [], shown: 0 };
  }
  const interactive = Deno.stdin.isTerminal() && Deno.stdout.isTerminal();
  return await monitor({
    paths: ctx.paths,
    index: runIndexFor(ctx.paths),
    env: ctx.env,
    interactive,
    ...flags,
  });
}

/** `--port` as given on the command line. */
export function parsePort(value: string): number {
  if (!/^\d{1,5}$/.test(value) || Number(value) > 65_535) {
    throw new SpotError(
      "CLI_USAGE",
      `Invalid --port "${value.slice(0, 20)}": expected a number from 0 to 65535`,
    );
  }
  return Number(value);
}
