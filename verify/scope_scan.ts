/**
 * The pure gate over a worker's delta: every changed path (deletions too) is
 * judged against the run's scope and the repo's deny lists, and every added
 * line against the secret rules. It only reports; callers decide what blocks.
 */
import { matchesForbidden, matchesGlob } from "./glob.ts";
import { type ChangedFile, GITLINK_MODE, SYMLINK_MODE } from "./parse_diff.ts";
import { caseFoldCollisions, isDotGit, pathProblems, quote } from "./path_rules.ts";
import { findSecrets, secretFileName } from "./secrets.ts";

export interface ScanPolicy {
  allowedPaths: string[];
  forbiddenPaths: string[];
  alwaysForbiddenPaths: string[];
  maxChangedFiles: number;
  maxDeletedLineRatio: number;
  maxDiffBytes: number;
  maxFileBytes: number;
}

export interface ScanIssue {
  code: string;
  file?: string;
  /** The same as `file`, under the original pi-worker's name for it (verification.json keeps both). */
  path?: string;
  line?: number;
  message: string;
}

export interface ScanResult {
  passed: boolean;
  issues: ScanIssue[];
  changedFiles: string[];
  addedLines: number;
  deletedLines: number;
  deletionRatio: number;
  diffBytes: number;
}

/** The only mode git records for an executable regular file. */
const EXECUTABLE_MODE = "100755";

const percent = (ratio: number): string => `${Math.round(ratio * 100)}%`;

/** Why a file's mode change matters, or null; a new executable counts as gaining the bit. */
function modeChange(file: ChangedFile): string | null {
  const { status, oldMode, newMode } = file;
  if (status === "typechange") {
    return `its type changes from ${quote(oldMode ?? "")} to ${quote(newMode ?? "")}`;
  }
  if (status === "deleted" || (oldMode === EXECUTABLE_MODE) === (newMode === EXECUTABLE_MODE)) return null;
  if (status === "added") return "it is added as an executable";
  return newMode === EXECUTABLE_MODE ? "the executable bit is added" : "the executable bit is removed";
}

function fileIssues(file: ChangedFile, policy: ScanPolicy, sizes?: Map<string, number>): ScanIssue[] {
  const issues: ScanIssue[] = [];
  const at = quote(file.path);
  const add = (code: string, message: string, line?: number) =>
    issues.push(
      line === undefined ? { code, file: file.path, message } : { code, file: file.path, line, message },
    );

  for (const problem of pathProblems(file.path)) add("PATH_INVALID", `Path ${at} is not allowed: ${problem}`);
  if (isDotGit(file.path.split("/").at(-1) ?? "")) {
    add("NESTED_GIT", `Path ${at} is not allowed: it would place a git repository inside the repository`);
  }
  if (!policy.allowedPaths.some((allowed) => allowed === file.path || matchesGlob(file.path, allowed))) {
    add("PATH_OUT_OF_SCOPE", `Path ${at} is out of scope: it matches none of the allowed paths`);
  }
  const denied = [...policy.forbiddenPaths, ...policy.alwaysForbiddenPaths];
  const forbidden = denied.find((pattern) => matchesForbidden(file.path, pattern));
  if (forbidden !== undefined) {
    add("PATH_FORBIDDEN", `Path ${at} is forbidden: it matches ${quote(forbidden)}`);
  }

  const modes = [file.oldMode, file.newMode];
  if (modes.includes(SYMLINK_MODE)) {
    add("SYMLINK_CHANGE", `Path ${at} is a symlink: workers may not touch links`);
  }
  if (modes.includes(GITLINK_MODE)) {
    add("SUBMODULE_CHANGE", `Path ${at} is a submodule: workers may not touch them`);
  }
  const mode = modeChange(file);
  if (mode) add("MODE_CHANGE", `File ${at} changes mode: ${mode}`);
  if (file.binary) add("BINARY_CHANGE", `File ${at} is binary: a binary change cannot be reviewed`);

  const size = sizes?.get(file.path);
  if (size !== undefined && size > policy.maxFileBytes) {
    add("FILE_TOO_LARGE", `File ${at} is too large: ${size} bytes, the limit is ${policy.maxFileBytes}`);
  }
  // Removing a credentials file leaks nothing; the deny lists still guard the path.
  const secretFile = file.status === "deleted" ? null : secretFileName(file.path);
  if (secretFile) add("SECRET_FILE", `File ${at} may hold credentials: ${secretFile}`);
  for (const found of findSecrets(file.path, file.addedLines)) {
    const detail = `${found.rule} ${quote(found.preview)}`;
    add("SECRET_DETECTED", `Line ${found.line} of ${at} looks like a secret: ${detail}`, found.line);
  }
  return issues;
}

/** Removing a handful of lines is ordinary cleanup; the ratio gate starts past this. */
export const MIN_NET_DELETED_LINES = 10;

export function scanDelta(
  files: ChangedFile[],
  diffBytes: number,
  policy: ScanPolicy,
  sizes?: Map<string, number>,
): ScanResult {
  const issues: ScanIssue[] = [];
  const changedFiles = files.map((file) => file.path);
  const addedLines = files.reduce((sum, file) => sum + file.addedCount, 0);
  const deletedLines = files.reduce((sum, file) => sum + file.deletedCount, 0);
  // Net deletion: a line rewritten counts as neither added nor deleted, so a fix that edits lines in
  // place scores 0, while dropping a file or a test suite scores near 1.
  const netDeleted = Math.max(0, deletedLines - addedLines);
  const deletionRatio = netDeleted === 0 ? 0 : netDeleted / (addedLines + deletedLines);

  if (files.length === 0) {
    issues.push({ code: "NO_CHANGES", message: "The worker changed nothing: the diff is empty" });
  }
  if (files.length > policy.maxChangedFiles) {
    const detail = `${files.length} files, the limit is ${policy.maxChangedFiles}`;
    issues.push({ code: "TOO_MANY_FILES", message: `Too many files changed: ${detail}` });
  }
  if (diffBytes > policy.maxDiffBytes) {
    const detail = `${diffBytes} bytes, the limit is ${policy.maxDiffBytes}`;
    issues.push({ code: "DIFF_TOO_LARGE", message: `The diff is too large: ${detail}` });
  }
  if (netDeleted >= MIN_NET_DELETED_LINES && deletionRatio > policy.maxDeletedLineRatio) {
    const share = `${netDeleted} net of ${addedLines + deletedLines} changed lines (${
      percent(deletionRatio)
    })`;
    const message = `Too many lines deleted: ${share}, the limit is ${percent(policy.maxDeletedLineRatio)}`;
    issues.push({ code: "EXCESSIVE_DELETION", message });
  }
  for (const [first, second] of caseFoldCollisions(changedFiles)) {
    const message = `Paths ${quote(first)} and ${
      quote(second)
    } collide: some filesystems store them as one name`;
    issues.push({ code: "PATH_CASE_COLLISION", file: second, message });
  }
  issues.push(...files.flatMap((file) => fileIssues(file, policy, sizes)));
  return {
    passed: issues.length === 0,
    issues,
    changedFiles,
    addedLines,
    deletedLines,
    deletionRatio,
    diffBytes,
  };
}
