/**
 * Locked paths, with effects: record what the lock covers at prepare
 * (`locked.json`), and check a worker's tree against it.
 */
import { listTree, readBlob, type TreeEntry } from "../git/tree_list.ts";
import type { ResolvedContract } from "../schemas/task_contract.ts";
import {
  compareLocks,
  frozenKeys,
  kindOf,
  type LockIssue,
  lockPatterns,
  type LockSnapshot,
  runsPackageScripts,
} from "../verify/locked.ts";
import type { RunState } from "../schemas/run_state.ts";
import { writeBaseline } from "../store/baseline.ts";
import type { SpotContext } from "../store/context.ts";
import { trustedBaseline } from "./baselines.ts";

function policy(ctx: SpotContext, task: ResolvedContract) {
  return {
    lockedPaths: task.lockedPaths,
    alwaysLockedPaths: ctx.config.alwaysLockedPaths,
    frozenPackageJsonKeys: ctx.config.frozenPackageJsonKeys,
    verificationArgv: task.verification.map((v) => v.argv),
  };
}

/** The manifests whose keys are frozen, and which of their keys decide what the checks run. */
function manifests(task: ResolvedContract, frozen: readonly string[], tree: Map<string, TreeEntry>) {
  const argv = task.verification.map((v) => v.argv);
  const scripts = runsPackageScripts(argv);
  const paths = new Set([...tree.keys()].filter((p) => p === "package.json" || p.endsWith("/package.json")));
  if (scripts) paths.add("package.json");
  const out = [...paths].map((path) => ({
    path,
    keys: frozen,
    verificationKeys: scripts ? ["scripts"] : [],
  }));
  if (argv.some((c) => (c[0].split("/").pop() === "deno") && c[1] === "task")) {
    for (const path of ["deno.json", "deno.jsonc"]) {
      out.push({ path, keys: ["tasks"], verificationKeys: ["tasks"] });
    }
  }
  return out;
}

async function jsonKeys(cwd: string, tree: Map<string, TreeEntry>, path: string, keys: readonly string[]) {
  const entry = tree.get(path);
  return entry
    ? frozenKeys(await readBlob(cwd, entry.oid), keys)
    : Object.fromEntries(keys.map((k) => [k, "null"]));
}

/** Records what the lock covers; returns the baseline's sha256 for `state.baselines`. */
export async function recordLocks(
  ctx: SpotContext,
  task: ResolvedContract,
  cwd: string,
  base: string,
): Promise<string> {
  const tree = await listTree(cwd, base);
  const p = policy(ctx, task);
  const patterns = lockPatterns(p, new Set(tree.keys()));
  const snapshot: LockSnapshot = { patterns, files: [], json: [] };
  for (const [path, entry] of tree) {
    const kind = kindOf(path, patterns);
    if (kind) snapshot.files.push({ path, mode: entry.mode, oid: entry.oid, kind });
  }
  for (const m of manifests(task, p.frozenPackageJsonKeys, tree)) {
    snapshot.json.push({
      path: m.path,
      keys: await jsonKeys(cwd, tree, m.path, m.keys),
      verificationKeys: m.verificationKeys,
    });
  }
  return await writeBaseline(ctx.store, task.runId, "locked.json", snapshot);
}

/** What the tree `treeish` changed of the run's locks (empty when nothing); a lost baseline blocks the run. */
export async function checkLocks(ctx: SpotContext, state: RunState, treeish: string): Promise<LockIssue[]> {
  const snapshot = await trustedBaseline<LockSnapshot>(ctx, state, "locked.json");
  const cwd = state.sourceRoot;
  const tree = await listTree(cwd, treeish);
  const json = new Map<string, Record<string, string>>();
  for (const j of snapshot.json) {
    json.set(j.path, await jsonKeys(cwd, tree, j.path, Object.keys(j.keys)));
  }
  return compareLocks(snapshot, tree, json);
}
