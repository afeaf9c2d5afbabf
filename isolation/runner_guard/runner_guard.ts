/**
 * The checks' runner comes from outside the tree; the code under test from
 * the tree. Two things would let a file the worker added run in the
 * runner's place, and both are closed here, for every check and under any
 * sandbox: a tree directory on PATH (a relative entry such as `.` or
 * `node_modules/.bin`, or one inside the checkout), which is dropped from
 * the PATH the runner is resolved with and the check gets, unless the
 * contract sets PATH itself; and Python's habit of putting the working
 * directory (or a script's) first on `sys.path`, which safe-path mode
 * (`PYTHONSAFEPATH=1`) turns off and spot's `sitecustomize` (python/ beside this file)
 * puts back behind the names the interpreter and the runner own. Pure.
 */
import { delimiter, isAbsolute, join, normalize } from "../../base/path.ts";
import { within } from "../../sandbox/host_paths.ts";
import { SPOT_ROOT } from "../../base/spot_root.ts";

/** The directory that holds spot's `sitecustomize.py`; it is put first on a check's PYTHONPATH. */
export const PYTHON_GUARD_DIR: string = join(SPOT_ROOT, "isolation", "runner_guard", "python");

const entries = (pathVar: string) => pathVar.split(delimiter);

/**
 * PATH without the entries a worker's files could be in: empty or relative ones (searched in the check's
 * tree), and any inside `trees` (the check's tree, the worktree) but for the dependency dirs spot shows
 * there read-only (`keep`: a venv's or node_modules' bin). The rest, the source checkout's own installs
 * (an activated `.venv/bin`) included, stays in order.
 */
export function outsidePath(pathVar: string, trees: readonly string[], keep: readonly string[] = []): string {
  return entries(pathVar)
    .filter((e) => isAbsolute(e))
    .filter((e) => keep.some((k) => within(normalize(e), k)) || !trees.some((t) => within(normalize(e), t)))
    .join(delimiter);
}

/** The tree-relative directories a PATH would search ("" for the tree's root); outside ones are left out. */
export function treePathDirs(pathVar: string, trees: readonly string[]): string[] {
  const out = new Set<string>();
  for (const e of entries(pathVar)) {
    if (!isAbsolute(e)) {
      const rel = normalize(e || ".").replace(/\/$/, "");
      if (rel !== ".." && !rel.startsWith("../")) out.add(rel === "." ? "" : rel.replace(/^\.\//, ""));
      continue;
    }
    const tree = trees.find((t) => within(normalize(e), t));
    if (tree) out.add(normalize(e).slice(tree.length + 1));
  }
  return [...out];
}

export interface GuardOptions {
  /** The tree the check runs in. */
  tree: string;
  /** The contract's own env for the check (its PYTHONPATH is kept, after spot's guard). */
  contractEnv: Record<string, string>;
  /** Module names (and `prefix*`) the runner owns beside the standard library. */
  protect: readonly string[];
  /** Protected names the base tree itself provides: left to the tree. */
  owned: readonly string[];
  /** spot's guard dir; when it is missing (spot loaded from a URL) the check gets no Python guard. */
  guardDir: string | null;
}

/** The variables that make a Python check's runner and its modules come from outside the tree. */
export function pythonGuardEnv(options: GuardOptions): Record<string, string> {
  if (!options.guardDir) return {};
  const own = options.contractEnv.PYTHONPATH;
  return {
    PYTHONSAFEPATH: "1",
    PYTHONPATH: own ? `${options.guardDir}${delimiter}${own}` : options.guardDir,
    SPOT_CHECK_TREE: options.tree,
    SPOT_PY_PROTECT: [...new Set(options.protect)].filter((n) => !options.owned.includes(n)).join(","),
    SPOT_PY_TREE_NAMES: options.owned.join(","),
  };
}
