/**
 * Reads the text of `git -c core.quotePath=false diff --no-renames --full-index
 * --binary --no-ext-diff --no-textconv <base> <tree>` into one record per path.
 * Pure and strict: output it cannot account for throws, because a verifier that
 * guesses about a diff would let the unread part through unchecked.
 */
import { SpotError } from "../errors.ts";

export type ChangeStatus = "added" | "modified" | "deleted" | "typechange";

/** A line the change adds, numbered as in the new file. */
export interface AddedLine {
  line: number;
  text: string;
}

export interface ChangedFile {
  path: string;
  status: ChangeStatus;
  oldMode: string | null;
  newMode: string | null;
  binary: boolean;
  addedLines: AddedLine[];
  deletedCount: number;
  addedCount: number;
}

/** Git's mode for a symbolic link; the blob holds the link target. */
export const SYMLINK_MODE = "120000";
/** Git's mode for a submodule commit pointer (gitlink). */
export const GITLINK_MODE = "160000";

const HUNK = /^@@ -\d+(?:,(\d+))? \+(\d+)(?:,(\d+))? @@/;
/** An unchanged mode is only shown at the end of the index line. */
const INDEX = /^index [0-9a-f]+\.\.[0-9a-f]+(?: (\d{6}))?$/;
const mode = (indexLine: string): string | undefined => INDEX.exec(indexLine)?.[1];
const C_ESCAPES: Record<string, number> = { a: 7, b: 8, t: 9, n: 10, v: 11, f: 12, r: 13, '"': 34, "\\": 92 };
const utf8 = new TextEncoder();

function fail(detail: string): never {
  throw new SpotError("GIT_FAILED", `Could not read the git diff: ${detail}`);
}

/** Decodes a C-quoted git path at the start of `text`; returns it and what follows. */
export function unquoteCPath(text: string): { value: string; rest: string } {
  const bytes: number[] = [];
  for (let i = 1; i < text.length; i++) {
    const ch = text[i];
    if (ch === '"') {
      return { value: new TextDecoder().decode(new Uint8Array(bytes)), rest: text.slice(i + 1) };
    }
    if (ch !== "\\") {
      bytes.push(...utf8.encode(ch));
      continue;
    }
    const next = text[++i] ?? fail(`unterminated quoted path ${JSON.stringify(text)}`);
    const octal = /^[0-3][0-7]{2}/.exec(text.slice(i, i + 3));
    if (octal) {
      bytes.push(parseInt(octal[0], 8));
      i += 2;
    } else if (next in C_ESCAPES) bytes.push(C_ESCAPES[next]);
    else fail(`unknown escape "\\${next}" in ${JSON.stringify(text)}`);
  }
  return fail(`unterminated quoted path ${JSON.stringify(text)}`);
}

/** A `---`/`+++` name: null for /dev/null; git adds a tab after names with spaces. */
function sideName(text: string, prefix: string): string | null {
  if (text === "/dev/null") return null;
  const name = text.startsWith('"') ? unquoteCPath(text).value : text.replace(/\t$/, "");
  return name.startsWith(prefix)
    ? name.slice(prefix.length)
    : fail(`path ${JSON.stringify(name)} lacks "${prefix}"`);
}

/** The path of `diff --git a/X b/X`; with renames off both sides name the same X. */
function headerPath(rest: string): string {
  if (rest.startsWith('"')) return sideName(unquoteCPath(rest).value, "a/") ?? "";
  const half = (rest.length - 5) / 2;
  const x = rest.slice(2, 2 + half);
  if (rest === `a/${x} b/${x}`) return x;
  return fail(`cannot split the header "diff --git ${rest}"`);
}

function newFile(path: string): ChangedFile {
  const counts = { deletedCount: 0, addedCount: 0 };
  return { path, status: "modified", oldMode: null, newMode: null, binary: false, addedLines: [], ...counts };
}

/** Reads one hunk body starting at `lines[i]` (after its `@@` line); returns the next index. */
function readHunk(lines: string[], i: number, header: RegExpExecArray, file: ChangedFile): number {
  let oldLeft = Number(header[1] ?? 1);
  let newLeft = Number(header[3] ?? 1);
  let lineNo = Number(header[2]);
  while (oldLeft > 0 || newLeft > 0) {
    const line = lines[i++] ?? fail(`hunk in ${JSON.stringify(file.path)} ends early`);
    const tag = line[0];
    if (tag === "+" && newLeft > 0) {
      file.addedLines.push({ line: lineNo++, text: line.slice(1) });
      file.addedCount++;
      newLeft--;
    } else if (tag === "-" && oldLeft > 0) {
      file.deletedCount++;
      oldLeft--;
    } else if ((tag === " " || line === "") && oldLeft > 0 && newLeft > 0) {
      lineNo++;
      oldLeft--;
      newLeft--;
    } else if (tag !== "\\") fail(`unexpected line ${JSON.stringify(line)} in ${JSON.stringify(file.path)}`);
  }
  while (lines[i]?.startsWith("\\")) i++;
  return i;
}

/**
 * Git prints a type change as a deletion then an addition of the same path;
 * modes whose first two digits differ (10 file, 12 symlink, 16 gitlink) are one too.
 */
function mergeTypeChanges(files: ChangedFile[]): ChangedFile[] {
  const out: ChangedFile[] = [];
  for (const file of files) {
    const prev = out.at(-1);
    if (prev?.status === "deleted" && file.status === "added" && prev.path === file.path) {
      const { oldMode, deletedCount } = prev;
      const binary = file.binary || prev.binary;
      out[out.length - 1] = { ...file, status: "typechange", oldMode, deletedCount, binary };
    } else out.push(file);
    if (file.oldMode && file.newMode && file.oldMode.slice(0, 2) !== file.newMode.slice(0, 2)) {
      file.status = "typechange";
    }
  }
  return out;
}

export function parseDiff(text: string): ChangedFile[] {
  const files: ChangedFile[] = [];
  const lines = text.split("\n");
  if (lines.at(-1) === "") lines.pop();
  let file: ChangedFile | undefined;
  let inBinary = false;
  let oldName: string | null | undefined;
  for (let i = 0; i < lines.length;) {
    const line = lines[i++];
    if (line.startsWith("diff --git ")) {
      file = newFile(headerPath(line.slice("diff --git ".length)));
      files.push(file);
      inBinary = false;
      oldName = undefined;
      continue;
    }
    if (!file) fail(`unexpected line ${JSON.stringify(line)} before any file`);
    if (inBinary) continue; // base85 data never contains a space, so cannot fake a header
    const hunk = HUNK.exec(line);
    if (hunk) i = readHunk(lines, i, hunk, file);
    else if (line.startsWith("new file mode ")) [file.status, file.newMode] = ["added", line.slice(14)];
    else if (line.startsWith("deleted file mode ")) [file.status, file.oldMode] = ["deleted", line.slice(18)];
    else if (line.startsWith("old mode ")) file.oldMode = line.slice(9);
    else if (line.startsWith("new mode ")) file.newMode = line.slice(9);
    else if (line === "GIT binary patch") [file.binary, inBinary] = [true, true];
    else if (line.startsWith("Binary files ")) file.binary = true;
    else if (INDEX.test(line)) {
      [file.oldMode, file.newMode] = [mode(line) ?? file.oldMode, mode(line) ?? file.newMode];
    } else if (line.startsWith("--- ")) oldName = sideName(line.slice(4), "a/");
    else if (line.startsWith("+++ ")) {
      const newName = sideName(line.slice(4), "b/");
      if (oldName && newName && oldName !== newName) fail(`${JSON.stringify(oldName)} renamed to ${newName}`);
      file.path = newName ?? oldName ?? file.path;
    } else fail(`unexpected line ${JSON.stringify(line)} in ${JSON.stringify(file.path)}`);
  }
  return mergeTypeChanges(files);
}
