/**
 * A dependency setup, run once per command and lockfile in spot's cache and
 * reused by every later run with the same key. It runs in a fresh checkout of
 * the base revision (never the worker's worktree, which the worker could
 * tamper with), sandboxed, with network only to the allowlisted registries.
 * A setup that changes a tracked file, or leaves an unignored one, fails:
 * installing dependencies must not edit the project (SETUP_CHANGED_TREE).
 */
import { join } from "../base/path.ts";
import { SpotError } from "../errors.ts";
import { git } from "../git/git.ts";
import { sha256Hex } from "../git/hash.ts";
import { gitCommonDir } from "../git/repo.ts";
import { runSetupCommand } from "../isolation/setup_launch.ts";
import type { DependencyDir, SetupRecord } from "../schemas/dependency_record.ts";
import type { Enforcement } from "../schemas/sandbox_record.ts";
import type { RunState } from "../schemas/run_state.ts";
import type { SpotContext } from "../store/context.ts";
import { readJsonFile, writeJsonAtomic } from "../store/files.ts";
import { lockBlocking, withLock } from "../store/lock.ts";
import { ECOSYSTEMS } from "./plan.ts";

const DEP_DIRS = ECOSYSTEMS.flatMap((e) => e.dirs);

interface Done {
  command: string;
  inputs: Record<string, string>;
  dirs: string[];
  durationMs: number;
  network: string;
  at: string;
}

export interface SetupResult {
  record: SetupRecord;
  dirs: DependencyDir[];
  enforcement: Enforcement | null;
}

/** The base revision's files, without registering a worktree in the user's repository. */
async function checkoutBase(state: RunState, tree: string, indexFile: string): Promise<void> {
  const opts = { cwd: state.sourceRoot, indexFile };
  await git(["read-tree", state.baseRevision], opts);
  await git(["checkout-index", "--all", "--force", `--prefix=${tree}/`], opts);
}

/** Tracked files the setup changed or removed, and unignored files it left, relative to the tree. */
async function changedByTree(state: RunState, tree: string, indexFile: string): Promise<string[]> {
  const common = await gitCommonDir(state.sourceRoot);
  // The index holds the base tree, so this compares the tree with the base, never with the user's HEAD.
  const opts = { cwd: tree, gitDir: common, indexFile };
  await git(["update-index", "-q", "--refresh"], { ...opts, allowFailure: true });
  const modified = await git(["diff-files", "--name-only", "-z"], opts);
  const added = await git(["ls-files", "--others", "--exclude-standard", "-z"], opts);
  return [...modified.stdout.split("\0"), ...added.stdout.split("\0")].filter(Boolean);
}

/** A setup's cache key: the command and the lockfiles' blob ids it installs from. */
export function setupKey(command: string, inputs: Record<string, string>): Promise<string> {
  return sha256Hex(JSON.stringify({ command, inputs }));
}

/** When the setup with this key finished, or null when no run made it yet. */
export async function setupMadeAt(ctx: SpotContext, key: string): Promise<string | null> {
  const done = await readJsonFile<Done>(join(ctx.paths.cacheRoot, "deps", key, "complete.json")).catch(() =>
    null
  );
  return done?.at ?? null;
}

export async function runSetup(
  ctx: SpotContext,
  state: RunState,
  plan: { command: string; inputs: Record<string, string>; tools: string[] },
): Promise<SetupResult> {
  const settings = ctx.config.dependencies;
  // What the setup cost this run, lock wait and reuse included: a reused setup is not free, only cheap.
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  const key = await setupKey(plan.command, plan.inputs);
  const root = join(ctx.paths.cacheRoot, "deps", key);
  const tree = join(root, "tree");
  const doneFile = join(root, "complete.json");
  const log = ctx.store.file(state.runId, "setup.log");
  await Deno.mkdir(join(ctx.paths.cacheRoot, "deps"), { recursive: true });
  // Two runs with one key: the second waits, then reuses what the first made.
  return await withLock(lockBlocking(`${root}.lock`), async () => {
    const done = await readJsonFile<Done>(doneFile).catch(() => null);
    const dirsOf = (names: string[]) => names.map((path) => ({ path, from: join(tree, path) }));
    if (done) {
      await Deno.writeTextFile(log, `reused the setup made at ${done.at} (key ${key})\n`);
      return {
        record: {
          command: plan.command,
          key,
          dir: root,
          cached: true,
          durationMs: elapsed(),
          log,
          network: done.network,
        },
        dirs: dirsOf(done.dirs),
        enforcement: null,
      };
    }
    await Deno.remove(root, { recursive: true }).catch(() => {});
    await Deno.mkdir(tree, { recursive: true });
    const indexFile = join(root, ".index");
    try {
      await checkoutBase(state, tree, indexFile);
      ctx.progress?.(`setup ${state.runId}: ${plan.command}`);
      const out = await runSetupCommand(ctx, state, {
        cwd: tree,
        command: plan.command,
        tools: plan.tools,
        allow: settings.registries,
        timeoutSeconds: settings.setupTimeoutSeconds,
      });
      await Deno.writeTextFile(
        log,
        `$ ${plan.command}\n${out.output}\n(exit ${out.exitCode}, ${out.durationMs} ms)\n`,
      );
      if (out.exitCode !== 0) {
        throw new SpotError(
          "SETUP_FAILED",
          `Cannot set up the dependencies of run "${state.runId}": \`${plan.command}\` ${
            out.timedOut ? "timed out" : `exited ${out.exitCode}`
          }; its output is in ${log}`,
          { details: { command: plan.command, log, network: out.network } },
        );
      }
      const changed = await changedByTree(state, tree, indexFile);
      if (changed.length > 0) {
        throw new SpotError(
          "SETUP_CHANGED_TREE",
          `Cannot use the setup \`${plan.command}\`: it changed the project, not only its dependencies: ${
            changed.slice(0, 5).join(", ")
          }`,
          { details: { command: plan.command, changed: changed.slice(0, 50), log } },
        );
      }
      const dirs: string[] = [];
      for (const d of DEP_DIRS) {
        if ((await Deno.lstat(join(tree, d)).catch(() => null))?.isDirectory) dirs.push(d);
      }
      await Deno.remove(indexFile).catch(() => {});
      const record: Done = {
        command: plan.command,
        inputs: plan.inputs,
        dirs,
        durationMs: out.durationMs,
        network: out.network,
        at: ctx.now(),
      };
      await writeJsonAtomic(doneFile, record);
      return {
        record: {
          command: plan.command,
          key,
          dir: root,
          cached: false,
          durationMs: elapsed(),
          log,
          network: out.network,
        },
        dirs: dirsOf(dirs),
        enforcement: out.enforcement,
      };
    } catch (error) {
      // A half-made setup is never reused: the next run starts it again.
      await Deno.remove(root, { recursive: true }).catch(() => {});
      throw error;
    }
  });
}
