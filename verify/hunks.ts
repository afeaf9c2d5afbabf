/**
 * Splits a diff into its hunks, so a reviewer can be pointed at exactly the
 * parts worth reading. Pairs with parse_diff.ts: sections come in the same
 * order, so the i-th section belongs to the i-th parsed file.
 */
import { parseDiff } from "./parse_diff.ts";

export interface Hunk {
  file: string;
  /** The `diff --git` header block of the file, for context. */
  fileHeader: string;
  /** New-side line range; 0..0 for a binary file or a deletion. */
  newStart: number;
  newCount: number;
  text: string;
}

const HUNK_HEADER = /^@@ -\d+(?:,\d+)? \+(\d+)(?:,(\d+))? @@/;

function sections(diff: string): string[][] {
  const out: string[][] = [];
  for (const line of diff.split("\n")) {
    if (line.startsWith("diff --git ")) out.push([]);
    out.at(-1)?.push(line);
  }
  return out;
}

export function splitHunks(diff: string): Hunk[] {
  const files = parseDiff(diff);
  const hunks: Hunk[] = [];
  sections(diff).forEach((lines, i) => {
    const file = files[i]?.path ?? "?";
    const first = lines.findIndex((l) => l.startsWith("@@ "));
    const header = (first < 0 ? lines : lines.slice(0, first)).join("\n");
    if (first < 0) {
      hunks.push({ file, fileHeader: header, newStart: 0, newCount: 0, text: lines.join("\n") });
      return;
    }
    let current: Hunk | null = null;
    for (const line of lines.slice(first)) {
      const m = HUNK_HEADER.exec(line);
      if (m) {
        current = {
          file,
          fileHeader: header,
          newStart: Number(m[1]),
          newCount: m[2] === undefined ? 1 : Number(m[2]),
          text: line,
        };
        hunks.push(current);
      } else if (current && line !== "") {
        current.text += "\n" + line;
      }
    }
  });
  return hunks;
}

/**
 * The hunks a reader should look at for a remark about `file` at `line` (a finding, an uncertain claim):
 * the hunk near the line, else every hunk of the file. Generous on purpose: reading more is always safe.
 */
export function hunksAt(hunks: Hunk[], file: string, line: number | null): Hunk[] {
  const mine = hunks.filter((h) => h.file === file);
  if (line === null) return mine;
  const near = mine.filter((h) => line >= h.newStart - 3 && line <= h.newStart + Math.max(h.newCount, 1) + 3);
  return near.length > 0 ? near : mine;
}

/**
 * The hunks one piece of evidence vouches for, strictly: the hunk whose new-side range (context lines
 * included) holds `line`, so one citation never covers two hunks and a far line covers none. A citation
 * without a line vouches only for hunks that have no new-side line to point at (a deleted or binary file):
 * otherwise one line-less entry could vouch for every change in a file, a payload included.
 */
export function hunksCited(hunks: Hunk[], file: string, line: number | null): Hunk[] {
  return hunks.filter((h) =>
    h.file === file &&
    (line === null ? h.newCount === 0 : line >= h.newStart && line < h.newStart + Math.max(h.newCount, 1))
  );
}
