/**
 * Locked paths, pure: what the lock covers at prepare, and what a later tree
 * changed of it. Content is compared by blob id and mode, so restoring an
 * mtime hides nothing; a rename is a deletion plus an addition.
 */
import { globToRegExp } from "./glob.ts";
import { foldPath } from "./path_rules.ts";
import { runnerLockPatterns } from "./runner_locks.ts";

export type LockKind = "locked" | "verification";

export interface LockedFile {
  path: string;
  mode: string;
  oid: string;
  kind: LockKind;
}

export interface LockedJsonKeys {
  path: string;
  /** Canonical JSON of each frozen key's value ("null" when absent). */
  keys: Record<string, string>;
  /** Frozen keys whose change alters what the verification runs (scripts, tasks). */
  verificationKeys: string[];
}

export interface LockSnapshot {
  patterns: { pattern: string; kind: LockKind }[];
  files: LockedFile[];
  json: LockedJsonKeys[];
}

export interface LockIssue {
  code: "LOCKED_PATH_CHANGED" | "VERIFICATION_SCRIPT_CHANGED";
  file: string;
  message: string;
}

export interface LockPolicy {
  lockedPaths: readonly string[];
  alwaysLockedPaths: readonly string[];
  frozenPackageJsonKeys: readonly string[];
  verificationArgv: readonly (readonly string[])[];
}

const PACKAGE_RUNNERS = new Set(["npm", "yarn", "pnpm", "bun", "npx"]);

function base(program: string): string {
  return program.split("/").pop() ?? program;
}

/** Repo files a verification argv names directly (`sh scripts/test.sh`, `python tests/run.py`). */
export function argvFiles(argv: readonly (readonly string[])[], tree: ReadonlySet<string>): string[] {
  const out = new Set<string>();
  for (const cmd of argv) {
    for (const item of cmd) {
      const path = item.replace(/^\.\//, "");
      if (tree.has(path)) out.add(path);
    }
  }
  return [...out];
}

/** Canonical JSON: keys sorted at every depth, so formatting changes are not changes. */
export function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(",")}]`;
  if (value && typeof value === "object") {
    const entries = Object.entries(value as Record<string, unknown>).sort(([a], [b]) => a.localeCompare(b));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(",")}}`;
  }
  return JSON.stringify(value ?? null);
}

export function frozenKeys(text: string, keys: readonly string[]): Record<string, string> {
  let parsed: Record<string, unknown> = {};
  try {
    parsed = JSON.parse(text);
  } catch {
    // An unparsable manifest is compared as a whole by its blob id instead.
    return { "(file)": canonical(text) };
  }
  return Object.fromEntries(keys.map((k) => [k, canonical(parsed?.[k])]));
}

export function runsPackageScripts(argv: readonly (readonly string[])[]): boolean {
  return argv.some((cmd) =>
    PACKAGE_RUNNERS.has(base(cmd[0])) || (base(cmd[0]) === "deno" && cmd[1] === "task")
  );
}

export function lockPatterns(
  policy: LockPolicy,
  tree: ReadonlySet<string>,
): { pattern: string; kind: LockKind }[] {
  return [
    ...policy.lockedPaths.map((pattern) => ({ pattern, kind: "locked" as const })),
    ...policy.alwaysLockedPaths.map((pattern) => ({ pattern, kind: "verification" as const })),
    ...runnerLockPatterns(policy.verificationArgv).map((pattern) => ({
      pattern,
      kind: "verification" as const,
    })),
    ...argvFiles(policy.verificationArgv, tree).map((pattern) => ({
      pattern,
      kind: "verification" as const,
    })),
  ];
}

/**
 * Whether a lock pattern covers a path, in any spelling a filesystem could take for the same file:
 * `tests/ADD_test.ts` overwrites a locked `tests/add_test.ts` on a case-insensitive filesystem.
 */
function covers(path: string, pattern: string): boolean {
  const regex = globToRegExp(pattern, { ignoreCase: true });
  return pattern.toLowerCase() === path.toLowerCase() || regex.test(path) || regex.test(foldPath(path));
}

/** A parent's explicit lock names the file most precisely, so it wins over the harness defaults. */
export function kindOf(path: string, patterns: LockSnapshot["patterns"]): LockKind | null {
  let kind: LockKind | null = null;
  for (const p of patterns) {
    if (!covers(path, p.pattern)) continue;
    if (p.kind === "locked") return "locked";
    kind = "verification";
  }
  return kind;
}

const codeOf = (kind: LockKind) =>
  kind === "verification" ? "VERIFICATION_SCRIPT_CHANGED" : "LOCKED_PATH_CHANGED";

/** Everything `now` changed of what `before` locked, plus new files that fall under a lock. */
export function compareLocks(
  before: LockSnapshot,
  now: ReadonlyMap<string, { mode: string; oid: string }>,
  nowJson: ReadonlyMap<string, Record<string, string>>,
): LockIssue[] {
  const issues: LockIssue[] = [];
  const known = new Set(before.files.map((f) => f.path));
  for (const f of before.files) {
    const entry = now.get(f.path);
    const what = !entry
      ? "deleted or renamed"
      : entry.oid !== f.oid
      ? "changed"
      : entry.mode !== f.mode
      ? `changed mode ${f.mode} -> ${entry.mode}`
      : null;
    if (what) {
      issues.push({ code: codeOf(f.kind), file: f.path, message: `Locked file "${f.path}" was ${what}` });
    }
  }
  for (const path of now.keys()) {
    if (known.has(path)) continue;
    const kind = kindOf(path, before.patterns);
    if (kind) {
      issues.push({
        code: codeOf(kind),
        file: path,
        message: `File "${path}" was added under a locked pattern`,
      });
    }
  }
  for (const j of before.json) {
    const after = nowJson.get(j.path);
    for (const [key, value] of Object.entries(j.keys)) {
      const moved = after === undefined ? value !== canonical(null) : after[key] !== value;
      if (!moved) continue;
      const kind: LockKind = j.verificationKeys.includes(key) ? "verification" : "locked";
      issues.push({
        code: codeOf(kind),
        file: j.path,
        message: `Frozen key "${key}" of "${j.path}" was changed`,
      });
    }
  }
  return issues;
}
