/**
 * The gate's half of keeping a check's runner out of the worker's hands:
 * the commands as the verify step runs them (the runner resolved on a PATH
 * without tree directories, the Python guard's variables), and the scan that
 * refuses a tree in which a new file would take the place of a module or
 * command the checks load (VERIFICATION_SCRIPT_CHANGED).
 */
import { join } from "../base/path.ts";
import { listTree } from "../git/tree_list.ts";
import {
  outsidePath,
  PYTHON_GUARD_DIR,
  pythonGuardEnv,
  treePathDirs,
} from "../isolation/runner_guard/runner_guard.ts";
import { realPathOrNull } from "../sandbox/host_paths.ts";
import type { DependencyRecord } from "../schemas/dependency_record.ts";
import type { RunState } from "../schemas/run_state.ts";
import type { ResolvedContract } from "../schemas/task_contract.ts";
import type { VerifyCommandSpec } from "../steps/protocol.ts";
import type { SpotContext } from "../store/context.ts";
import type { LockIssue } from "../verify/locked.ts";
import type { ChangedFile } from "../verify/parse_diff.ts";
import { argvModules, PYTHON_RUNNER_MODULES } from "../verify/shadow/python_names.ts";
import { protectedPythonNames, shadowIssues, treeOwnedNames } from "../verify/shadow/shadowing.ts";
import { resolveRunner } from "../workspace/runner.ts";

/** Paths as given and as real paths, each once. */
const both = (paths: string[]) => [...new Set([...paths, ...paths.map((p) => realPathOrNull(p) ?? p)])];

/** The trees a worker's files can be in: the check's and the worktree (the checkout gets them at integration). */
function trees(state: RunState, cwd: string): string[] {
  return both([cwd, state.worktreePath]);
}

const guardDir = realPathOrNull(join(PYTHON_GUARD_DIR, "sitecustomize.py")) ? PYTHON_GUARD_DIR : null;

/**
 * The PATH a check's runner is looked up on, and the check gets: the contract's own when it sets one, else
 * spot's without a directory of `trees` (but for the dependency dirs in `keep`). `guardedCommands` and the
 * refusal of a runner that is not there (gates/check_programs.ts) both use it.
 */
export function checkPath(
  spotPath: string,
  where: { env?: Record<string, string>; trees: string[]; keep: string[] },
): string {
  return where.env?.PATH ?? outsidePath(spotPath, where.trees, where.keep);
}

/** The checks as the verify step must spawn them; `passEnv` names what they take from spot's environment. */
export async function guardedCommands(
  ctx: SpotContext,
  state: RunState,
  options: { task: ResolvedContract; cwd: string; passEnv: string[] },
): Promise<VerifyCommandSpec[]> {
  const { task, cwd } = options;
  const argv = task.verification.map((v) => v.argv);
  const base = new Set((await listTree(state.sourceRoot, state.workerBaseRevision)).keys());
  const owned = treeOwnedNames(base, protectedPythonNames(argv));
  const deps = both((state.dependencies?.dirs ?? []).map((d) => join(cwd, d.path)));
  const where = { trees: trees(state, cwd), keep: deps };
  return task.verification.map((v) => {
    // spot's own names (a job task's ports and compose project) over the contract's.
    const env: Record<string, string> = { ...v.env, ...state.workspaceEnv };
    // A PATH the contract sets is its own choice; otherwise the check never searches the tree.
    env.PATH = checkPath(ctx.env("PATH") ?? "", { ...where, env });
    const guard = pythonGuardEnv({
      tree: cwd,
      contractEnv: env,
      protect: [...PYTHON_RUNNER_MODULES, ...argvModules([v.argv])],
      owned,
      guardDir,
    });
    const program = resolveRunner(v.argv[0], { cwd, pathVar: env.PATH, env: ctx.env });
    return {
      argv: [program, ...v.argv.slice(1)],
      timeoutSeconds: v.timeoutSeconds,
      env: { ...env, ...guard },
      passEnv: options.passEnv,
    };
  });
}

/** Top-level Python modules a run's dependency dirs install (a venv's site-packages), by directory listing. */
function installedPythonNames(record: DependencyRecord | undefined): Set<string> {
  const out = new Set<string>();
  const list = (dir: string) => {
    try {
      return [...Deno.readDirSync(dir)];
    } catch {
      return [];
    }
  };
  for (const dir of record?.dirs ?? []) {
    for (const lib of list(join(dir.from, "lib")).filter((e) => e.name.startsWith("python"))) {
      for (const e of list(join(dir.from, "lib", lib.name, "site-packages"))) {
        const name = /^([A-Za-z_][A-Za-z0-9_]*)(\.[^.]+)*$/.exec(e.name);
        if (name && !/\.(dist-info|egg-info|pth|egg-link)$/.test(e.name)) out.add(name[1]);
      }
    }
  }
  return out;
}

/** New files in the verified tree that would take the place of what the checks load. */
export async function checkShadows(
  ctx: SpotContext,
  state: RunState,
  options: { task: ResolvedContract; files: ChangedFile[]; tree: string },
): Promise<LockIssue[]> {
  const [tree, base] = await Promise.all([
    listTree(state.sourceRoot, options.tree),
    listTree(state.sourceRoot, state.workerBaseRevision),
  ]);
  const argv = options.task.verification.map((v) => v.argv);
  const roots = both([state.worktreePath, state.sourceRoot]);
  return shadowIssues({
    files: options.files,
    tree: new Set(tree.keys()),
    baseTree: new Set(base.keys()),
    argv,
    pathDirs: [
      ...treePathDirs(ctx.env("PATH") ?? "", roots),
      ...options.task.verification.flatMap((v) => v.env?.PATH ? treePathDirs(v.env.PATH, roots) : []),
    ],
    installed: installedPythonNames(state.dependencies),
  });
}
