/**
 * Files that take the place of what a check loads. Interpreters look in the
 * tree before (or beside) their own installs: Python puts the working
 * directory, a script's directory or pytest's rootdirs first on `sys.path`;
 * node and npm look in every `node_modules` up from a file, and npm puts
 * `node_modules/.bin` first on PATH; a tree directory on PATH is searched
 * for every command a check starts. A worker that adds `unittest/`,
 * `pytest.py`, `difflib.py`, a package's metadata with a pytest plugin,
 * `node_modules/.bin/node`, or an executable in a PATH directory changes
 * what runs the tests without touching them. Each is a harness change
 * (VERIFICATION_SCRIPT_CHANGED). The project's own names are not: a name
 * the base tree already had in that directory was the project's choice
 * before the worker came. Pure.
 */
import type { LockIssue } from "../locked.ts";
import type { ChangedFile } from "../parse_diff.ts";
import { argvModules, onList, PYTHON_RUNNER_MODULES, PYTHON_STDLIB } from "./python_names.ts";

export interface ShadowInputs {
  files: readonly Pick<ChangedFile, "path" | "status" | "oldMode" | "newMode">[];
  /** Every path of the verified tree. */
  tree: ReadonlySet<string>;
  /** Every path of the base tree. */
  baseTree: ReadonlySet<string>;
  /** The checks' argv. */
  argv: readonly (readonly string[])[];
  /** Tree-relative directories on the checks' PATH ("" is the tree's root). */
  pathDirs: readonly string[];
  /** Top-level Python modules the run's dependency dirs install. */
  installed: ReadonlySet<string>;
}

const IDENT = /^[A-Za-z_][A-Za-z0-9_]*$/;
const PY_SOURCE = /^([A-Za-z_][A-Za-z0-9_]*)\.(py|pyc|pyw)$/;
/** Extension modules: `name.so`, `name.cpython-312-x86_64-linux-gnu.so`, `name.abi3.so`, `name.pyd`. */
const PY_EXTENSION = /^([A-Za-z_][A-Za-z0-9_]*)(\.[^/]*)?\.(so|pyd)$/;
const EXECUTABLE = new Set(["100755", "120000"]);

const dirOf = (path: string) => path.includes("/") ? path.slice(0, path.lastIndexOf("/")) : "";

/** The module name a file gives Python, or null when it is not a module. */
export function moduleName(file: string): string | null {
  return PY_SOURCE.exec(file)?.[1] ?? PY_EXTENSION.exec(file)?.[1] ?? null;
}

/**
 * Every top-level name under which Python could import `path` (a module file): for each directory above it
 * that could be on `sys.path` (the root, and any directory that is not a package, i.e. has no
 * `__init__.py`), the next segment down: a module, or the package or namespace directory holding it.
 */
export function importableNames(path: string, tree: ReadonlySet<string>): { dir: string; name: string }[] {
  const parts = path.split("/");
  if (!moduleName(parts[parts.length - 1])) return [];
  const out: { dir: string; name: string }[] = [];
  for (let i = 0; i < parts.length; i++) {
    const dir = parts.slice(0, i).join("/");
    if (dir !== "" && tree.has(`${dir}/__init__.py`)) continue;
    const name = i === parts.length - 1 ? moduleName(parts[i]) : IDENT.test(parts[i]) ? parts[i] : null;
    if (name) out.push({ dir, name });
  }
  return out;
}

/** `dir\0name` for every top-level name the base tree already gave Python. */
function baseNames(baseTree: ReadonlySet<string>): Set<string> {
  const out = new Set<string>();
  for (const path of baseTree) {
    for (const { dir, name } of importableNames(path, baseTree)) out.add(`${dir}\0${name}`);
  }
  return out;
}

/** The Python names a check's interpreter and runner load: the protected set, as names and prefixes. */
export function protectedPythonNames(
  argv: readonly (readonly string[])[],
  installed: Iterable<string> = [],
): string[] {
  return [...PYTHON_STDLIB, ...PYTHON_RUNNER_MODULES, ...argvModules(argv), ...installed];
}

/** The protected names the base tree itself provides somewhere: the project's own, left to it at run time. */
export function treeOwnedNames(baseTree: ReadonlySet<string>, protectedNames: readonly string[]): string[] {
  const owned = new Set<string>();
  for (const key of baseNames(baseTree)) {
    const name = key.slice(key.indexOf("\0") + 1);
    if (onList(name, protectedNames)) owned.add(name);
  }
  return [...owned].sort();
}

function storeReason(path: string): string | null {
  const parts = path.split("/");
  const file = parts[parts.length - 1];
  if (parts.includes("node_modules")) {
    return "is under node_modules, where a check's runner finds modules and commands";
  }
  if (
    /^\.yarn\/(releases|plugins|cache|unplugged|sdks)\//.test(path) ||
    /^\.pnp\.(c?js|loader\.mjs|data\.json)$/.test(file)
  ) {
    return "is part of Yarn's dependency store or resolver, which a check's runner loads";
  }
  if (
    parts.slice(0, -1).some((p) =>
      /\.(dist|egg)-info$/.test(p) || p === "site-packages" || p === "dist-packages"
    ) ||
    /\.(pth|egg-link)$/.test(file) || file === "pyvenv.cfg"
  ) {
    return "is Python package metadata or a start-up file (plugins, entry points, .pth), which a check's runner reads";
  }
  return null;
}

export function shadowIssues(inputs: ShadowInputs): LockIssue[] {
  const names = protectedPythonNames(inputs.argv, inputs.installed);
  let owned: Set<string> | null = null;
  const issues: LockIssue[] = [];
  const flag = (file: string, why: string) =>
    issues.push({ code: "VERIFICATION_SCRIPT_CHANGED", file, message: `File "${file}" ${why}` });
  for (const f of inputs.files) {
    const store = storeReason(f.path);
    if (store) {
      flag(f.path, store);
      continue;
    }
    if (f.status === "deleted") continue;
    const becameExecutable = EXECUTABLE.has(f.newMode ?? "") && !EXECUTABLE.has(f.oldMode ?? "");
    if (becameExecutable && inputs.pathDirs.includes(dirOf(f.path))) {
      flag(f.path, `is a new command in "${dirOf(f.path) || "."}", a directory on the checks' PATH`);
      continue;
    }
    if (f.status !== "added") continue;
    owned ??= baseNames(inputs.baseTree);
    const hit = importableNames(f.path, inputs.tree)
      .find(({ dir, name }) => onList(name, names) && !owned!.has(`${dir}\0${name}`));
    if (hit) {
      flag(f.path, `shadows the Python module "${hit.name}" that a check's interpreter or runner loads`);
    }
  }
  return issues;
}
