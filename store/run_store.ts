/**
 * The run store: one directory per run, an atomic `state.json`, appended
 * `events.jsonl` and `steps.jsonl`, and the per-run lock.
 */
import { join } from "../base/path.ts";
import { SpotError } from "../errors.ts";
import { lazy } from "../base/lazy.ts";
import type { SpotEvent, SpotEventInput } from "../schemas/events.ts";
import type { RunState } from "../schemas/run_state.ts";
import { RUN_ID_PATTERN, TERMINAL } from "../schemas/constants.ts";
import {
  appendJsonLine,
  pathExists,
  readJsonFile,
  readJsonLines,
  writeJsonAtomic,
  writeTextAtomic,
} from "./files.ts";
import type { HeldLock } from "./lock.ts";
import type { Reclaimed } from "./ledger.ts";
import { runDir, type SpotPaths } from "./paths.ts";
import { markRun } from "./index_marks.ts";

/** Modules a read-only verb never needs, loaded on first use (docs/performance.md). */
/** One empty file per run that has not ended (`live()`), and the sign that a state dir's list was written. */
const LIVE_DIR = "live";
const LIVE_SEEDED = ".listed";

const legacyRuns = () => lazy<typeof import("./legacy_run.ts")>("./legacy_run.ts", import.meta.url);
const workerLog = () => lazy<typeof import("./worker_log.ts")>("./worker_log.ts", import.meta.url);
const locks = () => lazy<typeof import("./lock.ts")>("./lock.ts", import.meta.url);
const leftovers = () => lazy<typeof import("./ledger.ts")>("./ledger.ts", import.meta.url);

/** spot always records `workerUsage`; only a state without it can be the original pi-worker's. */
const maybeLegacy = (raw: unknown) =>
  typeof raw === "object" && raw !== null && (raw as { workerUsage?: unknown }).workerUsage === undefined;

/** A run's lock, and what taking it reclaimed from a killed process (empty almost always). */
export interface RunLock extends HeldLock {
  reclaimed: Reclaimed[];
}

export class RunStore {
  constructor(readonly paths: SpotPaths, readonly now: () => string = () => new Date().toISOString()) {}

  dir(runId: string): string {
    return runDir(this.paths, runId);
  }

  file(runId: string, name: string): string {
    return join(this.dir(runId), name);
  }

  /** A run's state; one the original pi-worker wrote is read as spot's, marked `origin: "pi-worker"`. */
  async load(runId: string): Promise<RunState> {
    const raw = await readJsonFile<RunState>(this.file(runId, "state.json")).catch(() => null);
    const legacy = maybeLegacy(raw) ? await legacyRuns() : null;
    const state = legacy?.isPiWorkerState(raw)
      ? await legacy.withPiWorkerUsage(this.dir(runId), legacy.fromPiWorkerState(raw))
      : raw;
    if (!state) throw new SpotError("RUN_NOT_FOUND", this.whyNotFound(runId), { details: { runId } });
    return state;
  }

  /** Why a run cannot be loaded, in the words that fit: no such run, not created yet, or unreadable. */
  private whyNotFound(runId: string): string {
    const dir = this.dir(runId);
    const exists = (path: string) => {
      try {
        Deno.lstatSync(path);
        return true;
      } catch {
        return false;
      }
    };
    if (!exists(dir)) return `Cannot find run "${runId}": no run has this id (no ${dir})`;
    if (!exists(join(dir, "state.json"))) {
      return `Cannot read run "${runId}": it has not been created yet (${dir} has no state.json; prepare writes it)`;
    }
    return `Cannot read run "${runId}": its state.json is not a run's state`;
  }

  async save(state: RunState): Promise<RunState> {
    // A run that has not ended is listed in live/ before its state says so, and leaves it only after its state
    // says it ended: a crash between leaves an extra entry (skipped when read), never a missing one.
    const ended = TERMINAL.has(state.status);
    if (!ended) this.#liveEntry(state.runId, true);
    // The run index (SQLite) is told by marks, which its readers take; a save never opens it (index_marks.ts).
    markRun(this.paths, state.runId);
    await writeJsonAtomic(this.file(state.runId, "state.json"), state);
    markRun(this.paths, state.runId);
    if (ended) this.#liveEntry(state.runId, false);
    return state;
  }

  /**
   * The runs that have not ended, read from their state: what admission counts slot holders among
   * (lifecycle/admit.ts), instead of every run a user keeps. A state dir from before live/ is listed whole
   * once to write it; an entry whose run ended, or whose directory is gone, is dropped.
   */
  async live(): Promise<RunState[]> {
    const dir = join(this.paths.stateRoot, LIVE_DIR);
    if (!pathExists(join(dir, LIVE_SEEDED))) {
      for (const s of await this.all()) {
        if (!TERMINAL.has(s.status) && !s.origin) this.#liveEntry(s.runId, true);
      }
      Deno.mkdirSync(dir, { recursive: true, mode: 0o700 });
      Deno.writeTextFileSync(join(dir, LIVE_SEEDED), "");
    }
    const out: RunState[] = [];
    for (const entry of Deno.readDirSync(dir)) {
      if (!RUN_ID_PATTERN.test(entry.name)) continue;
      const state = await readJsonFile<RunState>(this.file(entry.name, "state.json")).catch(() => null);
      if (state?.runId === entry.name && !TERMINAL.has(state.status)) out.push(state);
      else if (!pathExists(this.dir(entry.name)) || (state && TERMINAL.has(state.status))) {
        this.#liveEntry(entry.name, false);
      }
    }
    return out.sort((a, b) => a.createdAt.localeCompare(b.createdAt));
  }

  #liveEntry(runId: string, live: boolean): void {
    const path = join(this.paths.stateRoot, LIVE_DIR, runId);
    try {
      if (live) {
        Deno.mkdirSync(join(this.paths.stateRoot, LIVE_DIR), { recursive: true, mode: 0o700 });
        Deno.writeFileSync(path, new Uint8Array(), { mode: 0o600 });
      } else Deno.removeSync(path);
    } catch (error) {
      // Already gone; anything else is a real failure to keep the list whole.
      if (!(error instanceof Deno.errors.NotFound)) throw error;
    }
  }

  async event(runId: string, event: SpotEventInput): Promise<void> {
    const full = { ...event, at: this.now(), runId } as SpotEvent;
    await appendJsonLine(this.file(runId, "events.jsonl"), full);
    const line = (await workerLog()).renderWorkerLogLine(full);
    if (line !== null) {
      await Deno.writeTextFile(this.file(runId, "worker.log"), line + "\n", { append: true, create: true });
    }
  }

  async events(runId: string): Promise<SpotEvent[]> {
    return await readJsonLines<SpotEvent>(this.file(runId, "events.jsonl"));
  }

  async step(runId: string, record: Record<string, unknown>): Promise<void> {
    await appendJsonLine(this.file(runId, "steps.jsonl"), { at: this.now(), ...record });
  }

  async writeJson(runId: string, name: string, value: unknown): Promise<string> {
    const path = this.file(runId, name);
    await writeJsonAtomic(path, value);
    return path;
  }

  async writeText(runId: string, name: string, text: string): Promise<string> {
    const path = this.file(runId, name);
    await writeTextAtomic(path, text);
    return path;
  }

  async readJson<T>(runId: string, name: string): Promise<T | null> {
    return await readJsonFile<T>(this.file(runId, name));
  }

  /**
   * Every verb that changes a run holds this; a run spot did not write is refused (RUN_READ_ONLY). Whoever
   * takes it first after a killed process reclaims what that process left (store/ledger.ts) and notes it
   * in the run's events: the next verb on the run cleans up after the last.
   */
  async lock(runId: string): Promise<RunLock> {
    assertSpotRun(await this.load(runId));
    const held = await (await locks()).tryLockRun(this.file(runId, ".lock"), runId);
    try {
      return { release: () => held.release(), reclaimed: await this.reclaim(runId) };
    } catch (error) {
      held.release();
      throw error;
    }
  }

  /** Reclaims what a dead process left in the run's ledger; the caller holds the run's lock. */
  async reclaim(runId: string): Promise<Reclaimed[]> {
    const left = await leftovers();
    if (!(await left.hasLeftovers(this.dir(runId)))) return [];
    const reclaimed = await left.reclaimLedger(this.dir(runId), this.paths.cacheRoot);
    if (reclaimed.length) {
      await this.event(runId, {
        type: "note",
        message: `Reclaimed what a killed process left: ${left.describeReclaimed(reclaimed)}`,
      });
    }
    return reclaimed;
  }

  /** Every run's state, tolerating files caught mid-write. */
  async all(): Promise<RunState[]> {
    const out: RunState[] = [];
    try {
      for await (const entry of Deno.readDir(this.paths.runsDir)) {
        if (!entry.isDirectory || !RUN_ID_PATTERN.test(entry.name)) continue;
        const raw = await readJsonFile<RunState>(this.file(entry.name, "state.json")).catch(() => null);
        const legacy = maybeLegacy(raw) ? await legacyRuns() : null;
        if (legacy?.isPiWorkerState(raw)) out.push(legacy.fromPiWorkerState(raw));
        else if (raw?.runId) out.push(raw);
      }
    } catch (error) {
      if (!(error instanceof Deno.errors.NotFound)) throw error;
    }
    return out.sort((a, b) => a.createdAt.localeCompare(b.createdAt));
  }
}

/** spot shows a run the original pi-worker wrote, but never runs, verifies, approves or removes it. */
export function assertSpotRun(state: RunState, doing = "change"): void {
  if (state.origin !== "pi-worker") return;
  throw new SpotError(
    "RUN_READ_ONLY",
    `Cannot ${doing} run "${state.runId}": the original pi-worker wrote it, and spot only reads such runs`,
    { details: { runId: state.runId, origin: state.origin, hint: `spot inspect --id ${state.runId}` } },
  );
}
