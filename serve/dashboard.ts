/**
 * The dashboard's data, shared by the live server and the snapshot: one page
 * of runs and the totals from the index, the expanded runs' files, and the
 * connections probe. Totals are cached until the index changes.
 */
import { type AgentLine, agentLines } from "../agents/ls.ts";
import type { EnvReader, SpotPaths } from "../store/paths.ts";
import { RunStore } from "../store/run_store.ts";
import type { IndexTotals, RunIndex } from "../store/run_index.ts";
import type { RunEntry } from "../store/run_entry.ts";
import type { Config } from "../schemas/config.ts";
import { type Connections, probeConnections, type VersionRunner } from "./connections.ts";
import type { DashQuery } from "./dash_query.ts";
import { loadRunDetail, type RunDetail } from "./detail.ts";
import type { RunsView } from "./views/runs.ts";

/** The plots cover this many of the newest runs: a year of heavy use, read in one query. */
export const MAX_PLOTTED_RUNS = 50_000;

export interface DashboardSource {
  paths: SpotPaths;
  config: Config;
  env: EnvReader;
  index: RunIndex;
  now?: () => Date;
  runVersion?: VersionRunner;
}

export class Dashboard {
  #totals: { generation: string; value: IndexTotals } | null = null;
  #connections: Promise<Connections> | null = null;
  readonly #store: RunStore;
  readonly now: () => Date;

  constructor(readonly source: DashboardSource) {
    this.now = source.now ?? (() => new Date());
    this.#store = new RunStore(source.paths);
  }

  /** Named agents by run id, each with the line poll would print (read-only: a GET changes nothing). */
  async agents(): Promise<Map<string, AgentLine[]>> {
    const { paths, config } = this.source;
    const byRun = new Map<string, AgentLine[]>();
    for (const a of await agentLines({ paths, config, store: this.#store })) {
      if (a.runId) byRun.set(a.runId, [...(byRun.get(a.runId) ?? []), a]);
    }
    return byRun;
  }

  totals(): IndexTotals {
    const generation = this.source.index.generation();
    if (this.#totals?.generation !== generation) {
      this.#totals = { generation, value: this.source.index.totals() };
    }
    return this.#totals.value;
  }

  async runs(query: DashQuery): Promise<RunsView> {
    const index = this.source.index;
    await index.refresh();
    const filter = { caller: query.caller, status: query.status };
    const entries = index.page({ ...filter, limit: query.limit, offset: (query.page - 1) * query.limit });
    const details = new Map<string, RunDetail | null>();
    await Promise.all(
      query.expand.map(async (id) => details.set(id, await loadRunDetail(this.source.paths, id))),
    );
    const agents = await this.agents();
    return { query, totals: this.totals(), entries, total: index.count(filter), details, agents };
  }

  /** The runs the plots cover, newest first. */
  async plotted(): Promise<RunEntry[]> {
    await this.source.index.refresh();
    return this.source.index.page({ limit: MAX_PLOTTED_RUNS });
  }

  /** The last probe, or a new one when none ran yet or `fresh` asks for it. */
  connections(fresh = false): Promise<Connections> {
    if (fresh || !this.#connections) {
      const probe = this.source.index.refresh().then(() =>
        probeConnections({
          config: this.source.config,
          env: this.source.env,
          usedProfiles: this.source.index.profilesUsed(),
          now: () => this.now().toISOString(),
          runVersion: this.source.runVersion,
        })
      );
      this.#connections = probe;
      probe.catch(() => {
        if (this.#connections === probe) this.#connections = null;
      });
    }
    return this.#connections;
  }
}
