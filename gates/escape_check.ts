/**
 * The escape check: a worker confined to its worktree cannot change the
 * user's checkout or the repository's `.git` (config, hooks, info/, refs,
 * alternates), nor repoint its own worktree at another git dir (its `.git`
 * file, and the `commondir`, `gitdir` and `config.worktree` spot's git dir
 * for it holds). All are recorded at prepare and compared after every worker
 * turn; any difference ends the run ESCAPED_WORKTREE.
 */
import { join, relative } from "../base/path.ts";
import { contentDigest } from "../git/fingerprint.ts";
import { gitText } from "../git/git.ts";
import { sha256Hex } from "../git/hash.ts";
import { gitCommonDir } from "../git/repo.ts";
import { worktreeOf } from "../lifecycle/worktree.ts";
import type { RunState } from "../schemas/run_state.ts";
import { writeBaseline } from "../store/baseline.ts";
import type { Phase } from "../schemas/events.ts";
import type { SpotContext } from "../store/context.ts";
import { blockRun } from "../lifecycle/block.ts";
import { trustedBaseline } from "./baselines.ts";
import { changedInputFiles, inputPaths } from "./input_files.ts";

/** Parts of the common git dir a worker could use to reach outside its worktree. */
const WATCHED = ["config", "info", "hooks", "objects/info/alternates", "shallow", "modules"];
/** Parts of the worktree's own git dir that decide which repository and config git uses there. */
const WATCHED_WORKTREE = ["commondir", "gitdir", "config.worktree", "config"];

interface EscapeSnapshot {
  gitDir: string;
  files: Record<string, string>;
  refs: Record<string, string>;
  content: string;
  /** The worktree's `.git` file (absent in baselines from before it was watched). */
  pointer?: string;
}

/** What `rel` under `root` holds, a file's mode and hash or a link's target, each file and dir walked at once. */
async function walk(root: string, rel: string): Promise<Record<string, string>> {
  const path = join(root, rel);
  const info = await Deno.lstat(path).catch(() => null);
  if (!info) return {};
  if (info.isSymlink) return { [rel]: `link:${await Deno.readLink(path)}` };
  if (!info.isDirectory) {
    return { [rel]: `${(info.mode ?? 0).toString(8)}:${await sha256Hex(await Deno.readFile(path))}` };
  }
  const names: string[] = [];
  for await (const e of Deno.readDir(path)) names.push(e.name);
  return await walkAll(root, names.map((name) => join(rel, name)));
}

/** Every path's walk side by side, merged in the order given (the record is the same as one walk after another). */
async function walkAll(root: string, rels: string[]): Promise<Record<string, string>> {
  return Object.assign({}, ...await Promise.all(rels.map((rel) => walk(root, rel))));
}

/**
 * Refs spot itself moves (worker branches, a job's private refs: its base and its builders' verified work,
 * written while other tasks' workers run; the user's own branch on integrate) are not the worker's doing.
 */
const SPOT_REFS = ["refs/heads/pi-worker/", "refs/spot/"];

async function refs(source: string, branch: string | null): Promise<Record<string, string>> {
  const out = await gitText(["for-each-ref", "--format=%(refname) %(objectname)"], { cwd: source });
  const entries = out.split("\n").filter((l) => l && !SPOT_REFS.some((p) => l.startsWith(p)))
    .map((l) => l.split(" ") as [string, string])
    .filter(([name]) => branch === null || name !== `refs/heads/${branch}`);
  return Object.fromEntries(entries);
}

/** The snapshot's parts are independent: the git dir's files, the refs and the checkout's content run at once. */
async function snapshot(state: RunState): Promise<EscapeSnapshot> {
  const source = state.sourceRoot;
  const gitFiles = async () => {
    const gitDir = await gitCommonDir(source);
    const own = relative(gitDir, (await worktreeOf(state)).gitDir);
    const files = await walkAll(gitDir, [...WATCHED, ...WATCHED_WORKTREE.map((rel) => join(own, rel))]);
    return { gitDir, files };
  };
  const [{ gitDir, files }, refsNow, content, pointer] = await Promise.all([
    gitFiles(),
    refs(source, state.sourceBranch),
    // spot's own input files are left out here and watched by content below (gates/input_files.ts).
    contentDigest(source, { exclude: inputPaths(state) }),
    walk(state.worktreePath, ".git"),
  ]);
  return { gitDir, files, refs: refsNow, content, pointer: pointer[".git"] ?? "missing" };
}

/** Records the baseline; returns its sha256 for `state.baselines`. */
export async function recordEscapeBaseline(ctx: SpotContext, state: RunState): Promise<string> {
  return await writeBaseline(ctx.store, state.runId, "escape.json", await snapshot(state));
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

/** What the worker changed outside its worktree; empty when nothing. A lost baseline blocks the run. */
export async function escapeChanges(ctx: SpotContext, state: RunState): Promise<string[]> {
  const before = await trustedBaseline<EscapeSnapshot>(ctx, state, "escape.json");
  const [now, inputs] = await Promise.all([snapshot(state), changedInputFiles(state)]);
  const changes = [
    ...changedKeys(before.files, now.files, ".git/"),
    ...changedKeys(before.refs, now.refs, "ref"),
  ].map((c) => c.replace(".git/ ", `${relative(state.sourceRoot, before.gitDir) || ".git"}/`));
  if (before.content !== now.content) changes.push("the source checkout's files changed");
  for (const path of inputs) {
    changes.push(`${path}, an input file spot read from the source checkout, changed`);
  }
  if (before.pointer !== undefined && before.pointer !== now.pointer) {
    changes.push("the worktree's .git file was changed (it names the git dir git uses there)");
  }
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
