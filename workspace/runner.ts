/**
 * The program a check or a setup names, resolved on the host as the project would resolve it: by PATH,
 * then, when PATH leads to a version manager's shim, to the interpreter the shim would pick. A shim is a
 * script that runs the manager itself (`pyenv exec`), which needs the manager's whole tree and its state;
 * inside the sandbox only the chosen interpreter's own install is shown, so spot starts that directly.
 * Only pyenv's layout is understood (`<root>/shims/<name>` → `<root>/versions/<version>/bin/<name>`), and a
 * version name that is not a plain directory name is ignored: the worker writes `.python-version`.
 */
import { delimiter, dirname, isAbsolute, join } from "../base/path.ts";
import { which } from "../sandbox/which.ts";

/** A pyenv version name; "system" and anything with a slash or dots only are refused. */
const VERSION_NAME = /^[A-Za-z0-9][A-Za-z0-9._+-]*$/;

export interface ShimInputs {
  /** The shim's path, e.g. `~/.pyenv/shims/python3`. */
  bin: string;
  /** `PYENV_VERSION` of the user's environment, if set. */
  envVersion?: string;
  /** The text of the `.python-version` nearest the check's cwd, and of `<root>/version`, if any. */
  localVersion?: string;
  globalVersion?: string;
}

/** The interpreter a pyenv shim would run, or null when `bin` is not one or names no usable version. Pure. */
export function pyenvTarget(inputs: ShimInputs): string | null {
  const shims = dirname(inputs.bin);
  if (!shims.endsWith("/shims")) return null;
  const root = dirname(shims);
  const name = inputs.bin.slice(shims.length + 1);
  const chosen = [inputs.envVersion, inputs.localVersion, inputs.globalVersion]
    .map((text) => text?.split(/[\s:]+/).find((v) => v.length > 0))
    .find((v) => v !== undefined);
  if (!chosen || chosen === "system" || !VERSION_NAME.test(chosen) || /^\.+$/.test(chosen)) return null;
  return join(root, "versions", chosen, "bin", name);
}

function readOrUndefined(path: string): string | undefined {
  try {
    return Deno.readTextFileSync(path);
  } catch {
    return undefined;
  }
}

function nearest(file: string, from: string): string | undefined {
  for (let dir = from;; dir = dirname(dir)) {
    const text = readOrUndefined(join(dir, file));
    if (text !== undefined) return text;
    if (dirname(dir) === dir) return undefined;
  }
}

function isExecutable(path: string): boolean {
  return which(path, "") !== null;
}

/**
 * `program` as an absolute path: relative names against `cwd`, bare names by `pathVar`, a pyenv shim to its
 * interpreter when that exists. A name found nowhere is returned as given (the spawn reports it).
 */
export function resolveRunner(
  program: string,
  options: { cwd: string; pathVar: string; env: (name: string) => string | undefined },
): string {
  if (!isAbsolute(program) && program.includes("/")) return join(options.cwd, program);
  const found = which(program, options.pathVar);
  if (!found) return program;
  const root = dirname(dirname(found));
  if (!found.includes("/shims/") || !isAbsolute(root)) return found;
  const target = pyenvTarget({
    bin: found,
    envVersion: options.env("PYENV_VERSION"),
    localVersion: nearest(".python-version", options.cwd),
    globalVersion: readOrUndefined(join(root, "version")),
  });
  return target && isExecutable(target) ? target : found;
}

/** A check's program that is not there, and every place it was looked for. */
export interface MissingProgram {
  program: string;
  looked: string[];
}

/**
 * The program, when `resolveRunner` finds it nowhere on `pathVar` (the check's PATH, gates/runner_guard.ts);
 * null when it is found, or when only the run can tell: a path inside the tree may come from the dependency
 * setup or an earlier check (`./build/test`).
 */
export function missingCheckProgram(
  program: string,
  options: { cwd: string; pathVar: string; env: (name: string) => string | undefined },
): MissingProgram | null {
  if (!isAbsolute(program) && program.includes("/")) return null;
  if (isExecutable(resolveRunner(program, options))) return null;
  // A PATH often names a directory twice (a profile sourced twice): each is said once, in PATH's order.
  const dirs = [...new Set(options.pathVar.split(delimiter).filter((d) => isAbsolute(d)))];
  return { program, looked: isAbsolute(program) ? [program] : dirs };
}
