/**
 * The escape check: a worker confined to its worktree cannot change the
 * user's checkout or the repository's `.git` (config, hooks, info/, refs,
 * alternates). Both are recorded at prepare and compared after every worker
 * turn; any difference ends the run ESCAPED_WORKTREE.
 */
import { join, relative } from "node:path";
import { contentDigest } from "../git/fingerprint.ts";
import { git, gitText } from "../git/git.ts";
import { sha256Hex } from "../git/hash.ts";
import type { RunState } from "../schemas/run_state.ts";
import type { Phase } from "../schemas/events.ts";
import type { SpotContext } from "../store/context.ts";
import { blockRun } from "../lifecycle/block.ts";

const FILE = "escape.json";
/** Parts of the common git dir a worker could use to reach outside its worktree. */
const WATCHED = ["config", "info", "hooks", "objects/info/alternates", "shallow", "modules"];

interface EscapeSnapshot {
  gitDir: string;
  files: Record<string, string>;
  refs: Record<string, string>;
  content: string;
}

async function walk(root: string, rel: string, out: Record<string, string>): Promise<void> {
  const path = join(root, rel);
  const info = await Deno.lstat(path).catch(() => null);
  if (!info) return;
  if (info.isDirectory) {
    for await (const e of Deno.readDir(path)) await walk(root, join(rel, e.name), out);
  } else if (info.isSymlink) {
    out[rel] = `link:${await Deno.readLink(path)}`;
  } else {
    out[rel] = `${(info.mode ?? 0).toString(8)}:${await sha256Hex(await Deno.readFile(path))}`;
  }
}

/** Refs spot itself moves (worker branches, the user's own branch on integrate) are not the worker's doing. */
async function refs(source: string, branch: string | null): Promise<Record<string, string>> {
  const out = await gitText(["for-each-ref", "--format=%(refname) %(objectname)"], { cwd: source });
  const entries = out.split("\n").filter((l) => l && !l.startsWith("refs/heads/pi-worker/"))
    .map((l) => l.split(" ") as [string, string])
    .filter(([name]) => branch === null || name !== `refs/heads/${branch}`);
  return Object.fromEntries(entries);
}

async function snapshot(source: string, branch: string | null): Promise<EscapeSnapshot> {
  const gitDir = (await git(["rev-parse", "--path-format=absolute", "--git-common-dir"], { cwd: source }))
    .stdout.trim();
  const files: Record<string, string> = {};
  for (const rel of WATCHED) await walk(gitDir, rel, files);
  return { gitDir, files, refs: await refs(source, branch), content: await contentDigest(source) };
}

export async function recordEscapeBaseline(ctx: SpotContext, state: RunState): Promise<void> {
  await ctx.store.writeJson(state.runId, FILE, await snapshot(state.sourceRoot, state.sourceBranch));
}

function changedKeys(before: Record<string, string>, after: Record<string, string>, label: string): string[] {
  const keys = new Set([...Object.keys(before), ...Object.keys(after)]);
  return [...keys].filter((k) => before[k] !== after[k]).map((k) =>
    before[k] === undefined
      ? `${label} ${k} was added`
      : after[k] === undefined
      ? `${label} ${k} was removed`
      : `${label} ${k} was changed`
  );
}

/** What the worker changed outside its worktree; empty when nothing. */
export async function escapeChanges(ctx: SpotContext, state: RunState): Promise<string[]> {
  const before = await ctx.store.readJson<EscapeSnapshot>(state.runId, FILE);
  if (!before) return [];
  const now = await snapshot(state.sourceRoot, state.sourceBranch);
  const changes = [
    ...changedKeys(before.files, now.files, ".git/"),
    ...changedKeys(before.refs, now.refs, "ref"),
  ].map((c) => c.replace(".git/ ", `${relative(state.sourceRoot, before.gitDir) || ".git"}/`));
  if (before.content !== now.content) changes.push("the source checkout's files changed");
  return changes;
}

/** Blocks the run if the worker's turn reached outside its worktree. */
export async function guardEscape(ctx: SpotContext, state: RunState, phase: Phase): Promise<void> {
  const changes = await escapeChanges(ctx, state);
  if (changes.length === 0) return;
  await blockRun(
    ctx,
    state,
    "ESCAPED_WORKTREE",
    `the ${phase} turn changed things outside its worktree: ${changes.join("; ")}`,
    { changes },
  );
}
