/**
 * Does the run index keep the dashboard and `spot list` flat as runs pile up?
 * Builds two state directories, 10 runs and 10,000 runs (a few active, the
 * rest finished, as on a machine that has used spot for months), lets each
 * index settle, then compares the median latency of `GET /api/fragment`
 * (in process, through `app.request`) and of `spot list` (the real CLI, a
 * fresh process each time). Prints
 * `BENCH fragment_10k_vs_10 ratio=<x> target=2` and
 * `BENCH list_10k_vs_10 ratio=<x> target=1.5`. The fragment carries the plots; they are drawn again only
 * when the index changes, and what that costs (every run read and five charts drawn) is printed beside it
 * as `plots_fresh_ms_10` and `plots_fresh_ms_10k`.
 */
import { join } from "node:path";
import { spawnProcess } from "../sandbox/spawn.ts";
import { createApp } from "../serve/app.ts";
import {
  type FixtureHome,
  fixtureHome,
  fixtureState,
  settle,
  writeFixtureRun,
} from "../tests/fixture_runs.ts";
import type { Status } from "../schemas/run_state.ts";
import { CLI, ROOT } from "../tests/helpers.ts";
import { benchRatio, finishBench, median } from "./bench_line.ts";

const SMALL = 10;
const LARGE = 10_000;
const FRAGMENT_TARGET = 2;
const LIST_TARGET = 1.5;
/** Enough samples for a stable median on a shared two-core machine. */
const FRAGMENT_SAMPLES = 60;
const LIST_SAMPLES = 7;
const PLOT_SAMPLES = 9;
const STATUSES: Status[] = ["integrated", "integrated", "integrated", "failed", "blocked", "committed"];
const CALLERS = ["codex", "claude-code", "cli", "cursor"] as const;

async function populate(h: FixtureHome, n: number): Promise<void> {
  const start = Date.parse("2025-01-01T00:00:00.000Z");
  const batch: Promise<unknown>[] = [];
  for (let i = 0; i < n; i++) {
    const at = new Date(start + i * 60_000).toISOString();
    // Three runs in flight, whatever the history.
    const status: Status = i >= n - 3 ? "running" : STATUSES[i % STATUSES.length];
    batch.push(writeFixtureRun(
      h.paths,
      fixtureState(`run-${String(i).padStart(5, "0")}`, {
        status,
        caller: CALLERS[i % CALLERS.length],
        updatedAt: at,
      }, at),
    ));
    if (batch.length >= 200) await Promise.all(batch.splice(0));
  }
  await Promise.all(batch);
  await h.index.refresh();
  await settle(h.paths.runsDir);
  await h.index.refresh();
}

function appFor(h: FixtureHome) {
  return createApp({
    ...h,
    binding: { hostname: "127.0.0.1", port: 7317 },
    runVersion: () => Promise.resolve({ exitCode: 0, stdout: "1.0.0", stderr: "" }),
  });
}

async function fragmentMs(h: FixtureHome): Promise<number[]> {
  const app = appFor(h);
  const url = "http://127.0.0.1:7317/api/fragment";
  for (let i = 0; i < 10; i++) await (await app.request(url)).text();
  const times: number[] = [];
  for (let i = 0; i < FRAGMENT_SAMPLES; i++) {
    const t0 = performance.now();
    const res = await app.request(url);
    await res.text();
    times.push(performance.now() - t0);
  }
  return times;
}

/** The plots panel drawn afresh: each request names a view the cache has not seen (another page size). */
async function freshPlotsMs(h: FixtureHome): Promise<number> {
  const app = appFor(h);
  const times: number[] = [];
  for (let i = 0; i < PLOT_SAMPLES + 1; i++) {
    const t0 = performance.now();
    const res = await app.request(`http://127.0.0.1:7317/api/fragment?panel=plots&limit=${100 + i}`);
    await res.text();
    if (i > 0) times.push(performance.now() - t0); // the first loads the plotting library
  }
  return median(times);
}

async function listMs(h: FixtureHome): Promise<number[]> {
  const env: Record<string, string> = {
    PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin",
    HOME: Deno.env.get("HOME") ?? h.root,
    PI_WORKER_STATE_DIR: h.paths.stateRoot,
    PI_WORKER_CONFIG: join(h.root, "config.json"),
    PI_WORKER_CACHE_DIR: join(h.root, "cache"),
  };
  const denoDir = Deno.env.get("DENO_DIR");
  if (denoDir) env.DENO_DIR = denoDir;
  const argv = [
    Deno.execPath(),
    "run",
    "--allow-all",
    "--no-prompt",
    "--config",
    join(ROOT, "deno.json"),
    CLI,
    "list",
  ];
  const times: number[] = [];
  for (let i = 0; i < LIST_SAMPLES + 1; i++) {
    const t0 = performance.now();
    const r = await spawnProcess(argv, { env, maxOutputChars: 50_000_000 });
    const ms = performance.now() - t0;
    if (r.exitCode !== 0) throw new Error(`spot list failed: ${r.stderr}`);
    if (i > 0) times.push(ms); // the first run warms the module cache
  }
  return times;
}

const small = await fixtureHome();
const large = await fixtureHome();
try {
  const t0 = performance.now();
  await populate(small, SMALL);
  await populate(large, LARGE);
  const setupMs = performance.now() - t0;
  const [f10, f10k] = [await fragmentMs(small), await fragmentMs(large)];
  const [p10, p10k] = [await freshPlotsMs(small), await freshPlotsMs(large)];
  const [l10, l10k] = [await listMs(small), await listMs(large)];
  benchRatio("fragment_10k_vs_10", f10k, f10, {
    target: FRAGMENT_TARGET,
    names: ["10k", "10"],
    detail: `plots_fresh_ms_10=${p10.toFixed(0)} plots_fresh_ms_10k=${p10k.toFixed(0)}`,
  });
  benchRatio("list_10k_vs_10", l10k, l10, {
    target: LIST_TARGET,
    names: ["10k", "10"],
    detail: `setup_ms=${setupMs.toFixed(0)}`,
  });
} finally {
  await small.cleanup();
  await large.cleanup();
}
finishBench();
