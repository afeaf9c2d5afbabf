/**
 * Hardened git. The worktree is hostile input: every call turns off hooks,
 * fsmonitor, system and global config, external diff and textconv drivers.
 */
import { SpotError } from "../errors.ts";
import { spawnProcess } from "../sandbox/spawn.ts";
import { which } from "../sandbox/which.ts";

/** Git output we parse must fit here; a larger diff is judged by the size gate instead. */
export const GIT_MAX_OUTPUT_CHARS = 64_000_000;

const HARDENING = [
  "-c",
  "core.hooksPath=/dev/null",
  "-c",
  "core.fsmonitor=false",
  "-c",
  "core.quotePath=false",
  "-c",
  "diff.external=",
  "-c",
  "core.pager=cat",
  "-c",
  "commit.gpgSign=false",
  "-c",
  "tag.gpgSign=false",
  "-c",
  "protocol.file.allow=never",
];

export interface Identity {
  name: string;
  email: string;
}

export interface GitOptions {
  cwd: string;
  /**
   * The git dir to use, named by spot rather than found through the checkout's `.git` file, which a
   * worker can rewrite to point at a git dir (and config, filters) of its own. `cwd` is the work tree.
   */
  gitDir?: string;
  /** Use this index file instead of the repository's. */
  indexFile?: string;
  identity?: Identity;
  stdinText?: string;
  /** Return the result instead of throwing on a non-zero exit. */
  allowFailure?: boolean;
  /** Read the user's global config too (identity lookups only). */
  userConfig?: boolean;
}

export interface GitResult {
  stdout: string;
  stderr: string;
  exitCode: number | null;
}

let gitPath: string | null = null;

function resolveGit(): string {
  gitPath ??= which("git", Deno.env.get("PATH") ?? "/usr/bin:/bin");
  if (!gitPath) throw new SpotError("GIT_FAILED", "Cannot find git: it is not on PATH");
  return gitPath;
}

function gitEnv(options: GitOptions): Record<string, string> {
  const env: Record<string, string> = {
    PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin",
    HOME: Deno.env.get("HOME") ?? "/nonexistent",
    LANG: "C",
    LC_ALL: "C",
    GIT_CONFIG_NOSYSTEM: "1",
    GIT_TERMINAL_PROMPT: "0",
    // Reads must never rewrite the user's index behind their back.
    GIT_OPTIONAL_LOCKS: "0",
    GIT_ATTR_NOSYSTEM: "1",
  };
  if (!options.userConfig) env.GIT_CONFIG_GLOBAL = "/dev/null";
  if (options.indexFile) env.GIT_INDEX_FILE = options.indexFile;
  if (options.gitDir) {
    env.GIT_DIR = options.gitDir;
    env.GIT_WORK_TREE = options.cwd;
  }
  if (options.identity) {
    env.GIT_AUTHOR_NAME = env.GIT_COMMITTER_NAME = options.identity.name;
    env.GIT_AUTHOR_EMAIL = env.GIT_COMMITTER_EMAIL = options.identity.email;
  }
  return env;
}

/**
 * Git commands that only read, or write nothing but objects or a private index: they run in spot's own
 * process group, which spares the fork a group of their own costs (~1 ms each, more in a large verb; the
 * loop makes ~50 of these). A Ctrl-C that ends one with spot loses nothing. Everything else (moving refs,
 * the user's index or a checkout: cherry-pick, worktree, update-ref, reset, apply) keeps a group of its own,
 * so a terminal's Ctrl-C reaches spot, never the half-done git command.
 */
const READS = new Set([
  "cat-file",
  "check-ignore",
  "commit-tree",
  "diff",
  "diff-files",
  "for-each-ref",
  "hash-object",
  "ls-files",
  "ls-tree",
  "merge-base",
  "rev-list",
  "rev-parse",
  "show",
  "status",
  "write-tree",
]);
/** These change only the index they are given, which is spot's private one when `indexFile` is set. */
const PRIVATE_INDEX = new Set(["add", "read-tree", "update-index"]);

export function runsInSpotsGroup(args: string[], options: GitOptions): boolean {
  const sub = args[0] ?? "";
  if (sub === "config") return (args[1] ?? "").startsWith("--get");
  return READS.has(sub) || (options.indexFile !== undefined && PRIVATE_INDEX.has(sub));
}

/** Runs `git <args>` hardened; throws GIT_FAILED on a non-zero exit unless allowed. */
export async function git(args: string[], options: GitOptions): Promise<GitResult> {
  const argv = [resolveGit(), ...HARDENING, ...args];
  const result = await spawnProcess(argv, {
    cwd: options.cwd,
    env: gitEnv(options),
    stdinText: options.stdinText,
    maxOutputChars: GIT_MAX_OUTPUT_CHARS,
    group: !runsInSpotsGroup(args, options),
  });
  const out = { stdout: result.stdout, stderr: result.stderr, exitCode: result.exitCode };
  if (result.stdoutTruncated) {
    throw new SpotError(
      "GIT_FAILED",
      `Cannot read the output of "git ${args[0]}": it exceeds ${GIT_MAX_OUTPUT_CHARS} characters`,
    );
  }
  if (result.exitCode !== 0 && !options.allowFailure) {
    throw new SpotError(
      "GIT_FAILED",
      `Cannot run "git ${args.slice(0, 3).join(" ")}": ${
        result.spawnError ?? (result.stderr.trim() || `exit ${result.exitCode}`)
      }`,
      { details: { command: ["git", ...args].join(" "), exitCode: result.exitCode, cwd: options.cwd } },
    );
  }
  return out;
}

/** `git <args>` trimmed stdout. */
export async function gitText(args: string[], options: GitOptions): Promise<string> {
  return (await git(args, options)).stdout.trim();
}
