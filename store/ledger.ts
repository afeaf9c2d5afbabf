/**
 * The ledger of what a step makes outside its run's own files (a pristine tree and its entry in the user's
 * repository, a scratch worktree, a socket directory, a step process), and reclaiming it. Each is written down
 * (`leases/<id>.json` in the run directory, or in any directory a ledger is kept in) before it exists and
 * struck off after it is gone, so a `kill -9` between the two leaves a record of what to remove. Whoever holds
 * the run next (its lock) reclaims every lease whose owner no longer runs: process groups ended, worktrees
 * removed from the disk and from the repository's worktree list, directories deleted; and temporary git
 * indexes whose maker is gone (git/temp_index.ts). A lease whose owner still runs is in use, and left alone.
 */
import { join } from "../base/path.ts";
import { type ProcessStamp, selfStamp, stampAlive } from "../base/proc_table.ts";
import { tempIndexOwner } from "../git/temp_index.ts";
import { dropWorktree } from "../git/worktree.ts";
import { killGroup } from "../sandbox/spawn.ts";
import { readJsonFile, writeJsonAtomic } from "./files.ts";
/** `worktree`: a linked worktree of `repo`; `dir`: a directory; `process`: process groups to end. */
export type LeaseKind = "worktree" | "dir" | "process";

export interface Lease {
  schemaVersion: 1;
  id: string;
  kind: LeaseKind;
  /** What it is, in words: `pristine tree`, `provider forwarder socket`, `worker step`. */
  what: string;
  /** The worktree or directory. */
  path?: string;
  /** The repository whose `git worktree list` names the worktree. */
  repo?: string;
  /** The process groups (each led by its pid) of a `process` lease. */
  processes?: ProcessStamp[];
  /** The process that took the lease: while it runs, what the lease names is in use. */
  owner: ProcessStamp;
  at: string;
}

export type LeaseInput = Pick<Lease, "kind" | "what" | "path" | "repo" | "processes">;

export interface LeaseHandle {
  readonly id: string;
  /** Records more of it (a process's pid once it started). */
  update(patch: Partial<LeaseInput>): Promise<void>;
  /** Strikes it off: call once what it names is gone. */
  release(): Promise<void>;
}

export const LEASES = "leases";
export const leasesDir = (ledger: string): string => join(ledger, LEASES);

/** Writes the lease before its resource is made; `ledger` is the run directory (or another ledger's). */
export async function takeLease(ledger: string, input: LeaseInput): Promise<LeaseHandle> {
  const id = `${input.kind}-${Date.now().toString(36)}-${crypto.randomUUID().slice(0, 8)}`;
  const file = join(leasesDir(ledger), `${id}.json`);
  await Deno.mkdir(leasesDir(ledger), { recursive: true, mode: 0o700 });
  let lease: Lease = { schemaVersion: 1, id, ...input, owner: selfStamp(), at: new Date().toISOString() };
  // A process does not outlive a machine crash: its lease needs no fsync; a tree or a directory does.
  const durable = input.kind !== "process";
  await writeJsonAtomic(file, lease, { durable });
  return {
    id,
    update: async (patch) => {
      lease = { ...lease, ...patch };
      await writeJsonAtomic(file, lease, { durable });
    },
    release: () => Deno.remove(file).catch(() => {}),
  };
}

/** Every lease in the ledger, with its file; a record torn by a crash is skipped (its write never finished). */
export async function readLeases(ledger: string): Promise<{ file: string; lease: Lease }[]> {
  const out: { file: string; lease: Lease }[] = [];
  try {
    for await (const entry of Deno.readDir(leasesDir(ledger))) {
      if (!entry.isFile || !entry.name.endsWith(".json")) continue;
      const file = join(leasesDir(ledger), entry.name);
      const lease = await readJsonFile<Lease>(file).catch(() => null);
      if (lease?.kind) out.push({ file, lease });
    }
  } catch (error) {
    if (!(error instanceof Deno.errors.NotFound)) throw error;
  }
  return out.sort((a, b) => a.lease.at.localeCompare(b.lease.at));
}

/** One thing removed, said so a person can check it. */
export interface Reclaimed {
  /** `worktree` (with its repository's entry), `dir`, `process` (groups ended) or `temp-index`. */
  kind: "worktree" | "dir" | "process" | "temp-index";
  /** What it was, in words: `pristine tree`, `provider forwarder socket directory`, `worker step`. */
  what: string;
  /** Where it was. */
  path?: string;
  /** The repository whose worktree entry went with it. */
  repo?: string;
  /** The process groups ended. */
  pids?: number[];
}

/** Whether the ledger (or the directory's temporary indexes) has anything to look at: one directory read. */
export async function hasLeftovers(ledger: string): Promise<boolean> {
  try {
    for await (const entry of Deno.readDir(leasesDir(ledger))) if (entry.isFile) return true;
  } catch {
    // No ledger yet.
  }
  return (await tempIndexes(ledger)).length > 0;
}

async function tempIndexes(dir: string): Promise<string[]> {
  const out: string[] = [];
  try {
    for await (const entry of Deno.readDir(dir)) {
      const owner = entry.isFile ? tempIndexOwner(entry.name) : null;
      if (owner && !stampAlive(owner)) out.push(entry.name);
    }
  } catch {
    // Gone.
  }
  return out;
}

/**
 * Where a lease may name a path to delete: under spot's cache dir (pristine and scratch trees), or one of the
 * socket directories channels make (`<tmp>/spot-forwarder-…`, `spot-egress-…`). A ledger is written by spot
 * alone (no sandboxed worker can write the run directory), but a path outside these is never deleted anyway.
 */
export function deletable(path: string, cacheRoot: string): boolean {
  if (path.includes("/../") || path.endsWith("/..")) return false;
  return path.startsWith(`${cacheRoot}/`) || /\/spot-(forwarder|egress)-[0-9a-f-]{8,}$/.test(path);
}

async function carryOut(lease: Lease, cacheRoot: string): Promise<Reclaimed> {
  const done: Reclaimed = { kind: lease.kind, what: lease.what };
  if (lease.kind === "process") {
    const ended: number[] = [];
    // A pid a crashed step left may belong to a later process by now: only a stamp that still matches is ended.
    for (const p of lease.processes ?? []) {
      if (stampAlive(p) && killGroup(p.pid, "SIGKILL")) ended.push(p.pid);
    }
    return { ...done, pids: ended };
  }
  if (!lease.path || !deletable(lease.path, cacheRoot)) return done;
  if (lease.kind === "worktree" && lease.repo) {
    await dropWorktree(lease.repo, lease.path);
    return { ...done, path: lease.path, repo: lease.repo };
  }
  await Deno.remove(lease.path, { recursive: true }).catch(() => {});
  return { ...done, path: lease.path };
}

/**
 * Carries out and strikes off every lease of `ledger` whose owner is gone, and deletes the temporary indexes
 * of dead makers in it; returns what went. The caller holds whatever keeps a new owner off the ledger (the
 * run's lock), so nothing it removes can be taken again meanwhile.
 */
export async function reclaimLedger(ledger: string, cacheRoot: string): Promise<Reclaimed[]> {
  const out: Reclaimed[] = [];
  for (const { file, lease } of await readLeases(ledger)) {
    if (stampAlive(lease.owner)) continue;
    out.push(await carryOut(lease, cacheRoot));
    await Deno.remove(file).catch(() => {});
  }
  // A lease write that a kill cut short leaves its temp file; it never became a lease. Only the holder of the
  // run's lock writes leases, and that is the caller now, between steps: any temp file here is such a leftover.
  try {
    for await (const entry of Deno.readDir(leasesDir(ledger))) {
      if (entry.name.endsWith(".tmp")) await Deno.remove(join(leasesDir(ledger), entry.name)).catch(() => {});
    }
  } catch {
    // No ledger.
  }
  for (const name of await tempIndexes(ledger)) {
    await Deno.remove(join(ledger, name)).catch(() => {});
    out.push({ kind: "temp-index", what: "temporary git index", path: join(ledger, name) });
  }
  return out;
}

/** One line for a person (an event note, a verb's result): what was reclaimed, and where. */
export function describeReclaimed(items: Reclaimed[]): string {
  return items.map((r) => {
    if (r.kind === "process") {
      return `${r.what} (${r.pids?.length ? `ended group ${r.pids.join(", ")}` : "gone"})`;
    }
    if (r.repo) return `${r.what} ${r.path} (and its worktree entry in ${r.repo})`;
    return `${r.what} ${r.path ?? ""}`.trim();
  }).join("; ");
}
