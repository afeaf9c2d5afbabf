/** `spot dashboard`: the same view as one self-contained HTML file, for sharing or reading offline. */
import { join } from "../base/path.ts";
import type { EnvReader, SpotPaths } from "../store/paths.ts";
import type { RunIndex } from "../store/run_index.ts";
import { writeTextAtomic } from "../store/files.ts";
import type { Config } from "../schemas/config.ts";
import type { VersionRunner } from "./connections.ts";
import { Dashboard } from "./dashboard.ts";
import { DashQuery } from "./dash_query.ts";
import { int } from "./views/format.ts";
import { renderConnections } from "./views/connections.ts";
import { renderStaticPage } from "./views/page.ts";
import { renderRunsPanel } from "./views/runs.ts";
import { listJobs, readJob } from "./jobs/read.ts";
import { renderJobsSnapshot } from "./jobs/snapshot_view.ts";
import { renderPlotsPanel } from "./plots/runs_plots.ts";

/** The newest runs the file holds, each with its details; older ones are counted, not shown. */
export const SNAPSHOT_ROWS = 200;
/** The newest runs whose time per phase the file draws (the rest show the numbers): a page's worth. */
export const SNAPSHOT_PHASE_CHARTS = 25;
/** The newest jobs the file holds, each with its tasks. */
export const SNAPSHOT_JOBS = 20;

export interface SnapshotOptions {
  paths: SpotPaths;
  config: Config;
  env: EnvReader;
  index: RunIndex;
  output?: string;
  now?: () => Date;
  runVersion?: VersionRunner;
}

export function defaultSnapshotPath(paths: SpotPaths): string {
  return join(paths.stateRoot, "dashboard.html");
}

export async function renderSnapshot(
  o: SnapshotOptions,
): Promise<{ html: string; runs: number; total: number; jobs: number }> {
  const dashboard = new Dashboard(o);
  await o.index.refresh();
  const ids = o.index.page({ limit: SNAPSHOT_ROWS }).map((e) => e.summary.runId);
  const query = DashQuery.parse({ limit: SNAPSHOT_ROWS });
  const view = await dashboard.runs({ ...query, expand: ids });
  const shown = view.entries.length;
  view.entries.slice(SNAPSHOT_PHASE_CHARTS).forEach((e) => {
    const detail = view.details.get(e.summary.runId);
    if (detail) detail.phaseChart = false;
  });
  view.snapshotNote = shown < view.total
    ? `The newest ${int(shown)} of ${int(view.total)} runs; \`spot serve\` shows them all.`
    : `${int(shown)} run(s).`;
  const connections = await dashboard.connections().catch(() => null);
  const now = dashboard.now();
  const listed = await listJobs(o.paths, { page: 1, limit: SNAPSHOT_JOBS });
  const jobs = (await Promise.all(listed.jobs.map((j) => readJob(o.paths, j.jobId, now))))
    .filter((j) => j !== null);
  const shownRuns = new Set(view.entries.map((e) => e.summary.runId));
  const html = await renderStaticPage(
    {
      runs: renderRunsPanel(view),
      plots: await renderPlotsPanel({ entries: await dashboard.plotted() }),
      jobs: renderJobsSnapshot(jobs, listed.total, shownRuns),
      connections: renderConnections(connections),
    },
    now.toISOString(),
  );
  return { html, runs: shown, total: view.total, jobs: jobs.length };
}

export async function writeSnapshot(o: SnapshotOptions) {
  const output = o.output ?? defaultSnapshotPath(o.paths);
  const { html, runs, total, jobs } = await renderSnapshot(o);
  await writeTextAtomic(output, html);
  return { output, runs, total, jobs, bytes: new TextEncoder().encode(html).length };
}
