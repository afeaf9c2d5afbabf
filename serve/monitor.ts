/**
 * `spot monitor`: one tmux pane per active run, each following its
 * worker.log, tiled in one session. Re-running adds panes for runs that
 * became active and attaches again; `--list` only tells, `--kill` tears down.
 */
import { join } from "../base/path.ts";
import { SpotError } from "../errors.ts";
import type { EnvReader, SpotPaths } from "../store/paths.ts";
import type { RunIndex } from "../store/run_index.ts";
import { type ProcessResult, spawnInteractive, spawnProcess } from "../sandbox/spawn.ts";
import { which } from "../sandbox/which.ts";
import { type Status, TERMINAL } from "../schemas/run_state.ts";

export const DEFAULT_SESSION = "spot-monitor";
/** More panes than this are too small to read; the rest are listed, not shown. */
export const DEFAULT_MAX_PANES = 9;
/** A run with no active status still counts while its worker.log changed this recently. */
export const FRESH_MS = 10 * 60_000;
/** Lines of history each pane starts with. */
const TAIL_LINES = 100;

export interface MonitoredRun {
  runId: string;
  status: string | null;
  log: string;
  why: "active status" | "worker.log changed in the last 10 minutes";
}

export interface MonitorOptions {
  paths: SpotPaths;
  index: RunIndex;
  env: EnvReader;
  list?: boolean;
  kill?: boolean;
  now?: () => number;
  /** A person is at a terminal outside tmux: hand it over to the session. */
  interactive?: boolean;
}

/**
 * Active runs, then runs not ended whose worker.log changed lately (one starting has no state yet), each kind
 * in the order they started; an ended run is never followed (Deno.stat: the same on Linux and macOS).
 */
export async function monitoredRuns(
  paths: SpotPaths,
  index: RunIndex,
  now = Date.now(),
): Promise<MonitoredRun[]> {
  await index.refresh();
  // The index lists newest first (by creation time in milliseconds, then id): its reverse is start order,
  // which ids alone do not give for two runs created in the same second.
  const active = index.summaries({ active: true }) as { runId: string; status: string }[];
  const status = new Map(active.map((s) => [s.runId, s.status]));
  const started = new Map(active.map((s, i) => [s.runId, active.length - i]));
  const out: MonitoredRun[] = [];
  try {
    for await (const entry of Deno.readDir(paths.runsDir)) {
      if (!entry.isDirectory) continue;
      const log = join(paths.runsDir, entry.name, "worker.log");
      if (status.has(entry.name)) {
        out.push({ runId: entry.name, status: status.get(entry.name)!, log, why: "active status" });
        continue;
      }
      // An ended run's log says nothing more, however recently it was written.
      const known = index.statusOf(entry.name);
      if (known !== null && TERMINAL.has(known as Status)) continue;
      const mtime = await Deno.stat(log).then((i) => i.mtime?.getTime() ?? 0, () => 0);
      if (mtime > 0 && now - mtime < FRESH_MS) {
        const why = "worker.log changed in the last 10 minutes";
        out.push({ runId: entry.name, status: known, log, why });
      }
    }
  } catch (error) {
    if (!(error instanceof Deno.errors.NotFound)) throw error;
  }
  // Active runs first, so the panes go to them; in the order they started within each kind (ids begin with
  // the time), so a pane keeps its place as runs come and go.
  const rank = (r: MonitoredRun) => r.why === "active status" ? 0 : 1;
  const order = (r: MonitoredRun) => started.get(r.runId) ?? 0;
  return out.sort((a, b) => rank(a) - rank(b) || order(a) - order(b) || a.runId.localeCompare(b.runId));
}

/** Single-quotes a word for the shell tmux hands pane commands to. */
export function shellQuote(word: string): string {
  return `'${word.replaceAll("'", `'\\''`)}'`;
}

export function paneCommand(run: MonitoredRun): string {
  return `printf '%s\\n' ${shellQuote(`== spot run ${run.runId} ==`)}; exec tail -n ${TAIL_LINES} -F ${
    shellQuote(run.log)
  }`;
}

/** The tmux commands that add `runs` to `session`, creating it when `create` is set. Pure. */
export function tmuxPlan(session: string, runs: MonitoredRun[], create: boolean): string[][] {
  const plan: string[][] = [];
  runs.forEach((run, i) => {
    plan.push(
      create && i === 0
        ? ["new-session", "-d", "-s", session, "-x", "220", "-y", "60", paneCommand(run)]
        : ["split-window", "-t", session, paneCommand(run)],
    );
    plan.push(["select-pane", "-t", session, "-T", run.runId]);
    // Tile after every split, or the next split may find no room.
    plan.push(["select-layout", "-t", session, "tiled"]);
  });
  if (create && runs.length > 0) {
    plan.push(["set-option", "-t", session, "mouse", "on"]);
    plan.push(["set-option", "-t", session, "pane-border-status", "top"]);
  }
  return plan;
}

class Tmux {
  constructor(
    readonly binary: string,
    readonly socket: string | undefined,
    readonly env: Record<string, string>,
  ) {}

  run(args: string[]): Promise<ProcessResult> {
    const argv = [this.binary, ...(this.socket ? ["-L", this.socket] : []), ...args];
    // The tmux server daemonizes into its own session; it must outlive this client.
    return spawnProcess(argv, { env: this.env, timeoutMs: 10_000, reapGroup: false });
  }

  /** Gives the terminal to `tmux attach`; returns when the person detaches. */
  attach(session: string): Promise<number> {
    const argv = [this.binary, ...(this.socket ? ["-L", this.socket] : []), "attach", "-t", session];
    return spawnInteractive(argv, { env: this.env });
  }

  async must(args: string[]): Promise<ProcessResult> {
    const r = await this.run(args);
    if (r.exitCode !== 0) {
      throw new SpotError(
        "MONITOR_FAILED",
        `tmux ${args[0]} failed: ${(r.stderr || r.spawnError || "").trim()}`,
        {
          details: { argv: args },
        },
      );
    }
    return r;
  }
}

function tmuxFor(env: EnvReader): Tmux {
  const binary = which(env("PI_MONITOR_TMUX") ?? "tmux", env("PATH") ?? "");
  if (!binary) {
    throw new SpotError("MONITOR_FAILED", "Cannot monitor runs: tmux is not installed", {
      details: { hint: "install tmux (apt install tmux, brew install tmux), or follow one run with tail -F" },
    });
  }
  const pass: Record<string, string> = { TERM: env("TERM") || "xterm-256color" };
  for (const name of ["PATH", "HOME", "LANG", "TMUX_TMPDIR", "TMUX"]) {
    const value = env(name);
    if (value) pass[name] = value;
  }
  return new Tmux(binary, env("PI_MONITOR_SOCKET") || undefined, pass);
}

export interface MonitorResult {
  session: string;
  runs: MonitoredRun[];
  /** --list: how many of them would get a pane. */
  shown?: number;
  /** --list: the panes' cap (`PI_MONITOR_MAX`), and the runs past it that would get none. */
  maxPanes?: number;
  notShown?: string[];
  killed?: boolean;
  created?: boolean;
  added?: string[];
  attached?: boolean;
  /** The command that attaches a terminal to the session. */
  attach?: string | null;
}

export async function monitor(o: MonitorOptions): Promise<MonitorResult> {
  const session = o.env("PI_MONITOR_SESSION") || DEFAULT_SESSION;
  const max = Number(o.env("PI_MONITOR_MAX")) || DEFAULT_MAX_PANES;
  const runs = await monitoredRuns(o.paths, o.index, (o.now ?? Date.now)());
  if (o.list) {
    const notShown = runs.slice(max).map((r) => r.runId);
    return { session, runs, shown: Math.min(runs.length, max), maxPanes: max, notShown };
  }
  const tmux = tmuxFor(o.env);
  const exists = (await tmux.run(["has-session", "-t", session])).exitCode === 0;
  if (o.kill) {
    if (exists) await tmux.must(["kill-session", "-t", session]);
    return { session, runs, killed: exists };
  }
  let titles = new Set<string>();
  if (exists) {
    const panes = await tmux.must(["list-panes", "-t", session, "-F", "#{pane_title}"]);
    titles = new Set(panes.stdout.split("\n").map((l) => l.trim()));
  }
  const room = Math.max(0, max - titles.size);
  const added = runs.filter((r) => !titles.has(r.runId)).slice(0, room);
  for (const step of tmuxPlan(session, added, !exists)) {
    // Cosmetic options may be missing from an old tmux; the panes themselves must exist.
    if (step[0] === "set-option") await tmux.run(step);
    else await tmux.must(step);
  }
  const live = exists || added.length > 0;
  let attached = false;
  if (live && o.env("TMUX")) attached = (await tmux.run(["switch-client", "-t", session])).exitCode === 0;
  else if (live && o.interactive) attached = (await tmux.attach(session)) === 0;
  const socket = o.env("PI_MONITOR_SOCKET");
  return {
    session,
    runs,
    created: !exists && added.length > 0,
    added: added.map((r) => r.runId),
    attached,
    attach: live ? `tmux ${socket ? `-L ${socket} ` : ""}attach -t ${session}` : null,
  };
}
