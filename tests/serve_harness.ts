/** The dashboard app over a fixture state dir, for the route tests; no port is opened. */
import { createApp } from "../serve/app.ts";
import type { VersionRunner } from "../serve/connections.ts";
import { type FixtureHome, fixtureHome, fixtureState, writeFixtureRun } from "./fixture_runs.ts";
import type { Binding } from "../serve/guard.ts";

export const BASE = "http://127.0.0.1:7317";
export const BINDING: Binding = { hostname: "127.0.0.1", port: 7317 };
export const SECRET = "sk-live-THIS-MUST-NEVER-SHOW";

export function fakeVersions(): { runner: VersionRunner; calls: string[][] } {
  const calls: string[][] = [];
  return {
    calls,
    runner: (argv) => {
      calls.push(argv);
      return Promise.resolve({ exitCode: 0, stdout: "pi 9.9.9\n", stderr: "" });
    },
  };
}

export async function withApp(
  fn: (
    h: FixtureHome,
    app: ReturnType<typeof createApp>,
    extra: { calls: string[][]; stop: AbortController },
  ) => Promise<void>,
  options: { pollMs?: number; heartbeatMs?: number } = {},
): Promise<void> {
  const h = await fixtureHome({ DEEPSEEK_API_KEY: SECRET });
  const versions = fakeVersions();
  const stop = new AbortController();
  const app = createApp({
    paths: h.paths,
    config: h.config,
    env: h.env,
    index: h.index,
    binding: { ...BINDING },
    csrfToken: "token-123",
    runVersion: versions.runner,
    signal: stop.signal,
    pollMs: options.pollMs ?? 50,
    heartbeatMs: options.heartbeatMs ?? 10_000,
    onError: () => {},
  });
  try {
    await fn(h, app, { calls: versions.calls, stop });
  } finally {
    stop.abort();
    await h.cleanup();
  }
}

export async function seed(h: FixtureHome): Promise<void> {
  for (let i = 0; i < 6; i++) {
    await writeFixtureRun(
      h.paths,
      fixtureState(`run-${i}`, {
        caller: i % 2 ? "codex" : "cli",
        status: i === 5 ? "running" : i === 4 ? "blocked" : "integrated",
      }, `2025-01-0${i + 1}T00:00:00.000Z`),
    );
  }
}

export async function text(app: ReturnType<typeof createApp>, path: string, init?: RequestInit) {
  const res = await app.request(`${BASE}${path}`, init);
  return { res, body: await res.text() };
}

export function runIds(body: string): string[] {
  return [...body.matchAll(/data-run="([^"]+)"/g)].map((m) => m[1]);
}
