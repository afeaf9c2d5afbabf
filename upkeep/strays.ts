/**
 * What a killed process left under the cache dir that no run's ledger names any more: a pristine tree from
 * before leases were kept (or whose lease was lost with its run directory), and a dependency setup that never
 * finished (`deps/<key>` without its `complete.json`, nobody holding its lock). `spot gc` lists them, and with
 * `--confirm` removes them (a pristine tree with its entry in its run's repository).
 */
import { join } from "../base/path.ts";
import { dropWorktree } from "../git/worktree.ts";
import type { SpotContext } from "../store/context.ts";
import { readLeases } from "../store/ledger.ts";
import type { Reclaimed } from "../store/ledger.ts";

/** A leftover of a killed process, by run (null: found under the cache dir, no run's ledger names it). */
export type Leftover = Reclaimed & { runId: string | null };

/** A directory younger than this may belong to a step that wrote its lease a moment ago elsewhere. */
const SETTLE_MS = 60_000;

async function entries(dir: string): Promise<string[]> {
  const out: string[] = [];
  try {
    for await (const e of Deno.readDir(dir)) if (e.isDirectory) out.push(e.name);
  } catch {
    // Nothing there.
  }
  return out.sort();
}

async function oldEnough(path: string, now: number): Promise<boolean> {
  const info = await Deno.stat(path).catch(() => null);
  return info !== null && now - (info.mtime?.getTime() ?? 0) > SETTLE_MS;
}

async function leasedPaths(ctx: SpotContext): Promise<Set<string>> {
  const out = new Set<string>();
  for (const runId of await entries(ctx.paths.runsDir)) {
    for (const { lease } of await readLeases(join(ctx.paths.runsDir, runId)).catch(() => [])) {
      if (lease.path) out.add(lease.path);
    }
  }
  return out;
}

/** Removes (with `remove`) a setup directory nobody is making and nobody finished; true when it is one. */
async function unfinishedSetup(dir: string, remove: boolean): Promise<boolean> {
  if (await Deno.stat(join(dir, "complete.json")).catch(() => null)) return false;
  const lock = await Deno.open(`${dir}.lock`, { read: true, write: true, create: true }).catch(() => null);
  if (!lock) return false;
  try {
    // Held while it is judged and removed: a setup starting now waits, then makes the directory afresh.
    if (!(await lock.tryLock(true))) return false;
    if (await Deno.stat(join(dir, "complete.json")).catch(() => null)) return false;
    if (remove) await Deno.remove(dir, { recursive: true }).catch(() => {});
    return true;
  } finally {
    lock.close();
  }
}

export async function strays(ctx: SpotContext, options: { confirm: boolean }): Promise<Leftover[]> {
  const now = Date.now();
  const out: Leftover[] = [];
  const leased = await leasedPaths(ctx);
  const pristine = join(ctx.paths.cacheRoot, "pristine");
  for (const name of await entries(pristine)) {
    const path = join(pristine, name);
    if (leased.has(path) || !(await oldEnough(path, now))) continue;
    // `<runId>-<8 hex>`: the run names the repository whose worktree list may still hold it.
    const runId = name.replace(/-[0-9a-f]{8}$/, "");
    const repo = await ctx.store.load(runId).then((s) => s.sourceRoot, () => null);
    if (options.confirm) {
      if (repo) await dropWorktree(repo, path);
      else await Deno.remove(path, { recursive: true }).catch(() => {});
    }
    out.push({
      runId: repo ? runId : null,
      kind: "worktree",
      what: "pristine tree",
      path,
      ...(repo ? { repo } : {}),
    });
  }
  const deps = join(ctx.paths.cacheRoot, "deps");
  for (const key of await entries(deps)) {
    const path = join(deps, key);
    if (!(await oldEnough(path, now)) || !(await unfinishedSetup(path, options.confirm))) continue;
    out.push({ runId: null, kind: "dir", what: "unfinished dependency setup", path });
  }
  return out;
}
