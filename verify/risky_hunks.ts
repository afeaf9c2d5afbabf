/**
 * The hunks a parent must see at every tier, whatever the self-review says: those that add process control
 * (an exit, a kill, a signal handler), dynamic code (eval, exec, spawning a process, importing a computed
 * name), network access, or a write outside the tree. An early exit in the code under test makes a check
 * pass while nothing ran; it is the cheapest cheat there is, so it is never left to a random draw. Pure.
 */
import type { Hunk } from "./hunks.ts";
import { isCommentLine, languageOf, patternsFor, type RiskKind } from "./risk_patterns.ts";

export interface Risk {
  kind: RiskKind;
  /** The matched code, whitespace collapsed, at most 40 characters. */
  what: string;
  /** The new-side line it starts on. */
  line: number;
}

/** The added lines of a hunk, with their new-side line numbers. */
function addedLines(hunk: Hunk): { line: number; text: string }[] {
  const out: { line: number; text: string }[] = [];
  let line = hunk.newStart;
  for (const raw of hunk.text.split("\n").slice(1)) {
    if (raw.startsWith("+")) out.push({ line: line++, text: raw.slice(1) });
    else if (raw.startsWith(" ")) line++;
  }
  return out;
}

/** The first new-side line of the file, when the hunk holds it (a shebang decides the language). */
function firstLine(hunk: Hunk): string | undefined {
  if (hunk.newStart !== 1) return undefined;
  const first = hunk.text.split("\n").slice(1).find((l) => l.startsWith("+") || l.startsWith(" "));
  return first?.slice(1);
}

/**
 * What a hunk adds that must be shown, at most one finding per kind (the first). The added lines are
 * matched as one text, so `process\n  .exit(0)` is still an exit; whole-line comments are blanked first.
 */
export function hunkRisks(hunk: Hunk): Risk[] {
  // A binary file or a bare mode change has no hunk text to read.
  if (!hunk.text.startsWith("@@")) return [];
  const language = languageOf(hunk.file, firstLine(hunk));
  if (!language) return [];
  const added = addedLines(hunk);
  if (added.length === 0) return [];
  const code = added.map((a) => isCommentLine(language, a.text) ? "" : a.text).join("\n");
  const starts: number[] = [];
  let at = 0;
  for (const a of added) {
    starts.push(at);
    at += a.text.length + 1;
  }
  const found = new Map<RiskKind, Risk>();
  for (const { kind, re } of patternsFor(language)) {
    if (found.has(kind)) continue;
    const m = re.exec(code);
    if (!m) continue;
    // The match may begin with the whitespace or punctuation before the name: report from its first word.
    // and may leave out the object it is called on (`exit(` of `process.exit(`): report from the name's start.
    let index = m.index + Math.max(m[0].search(/[\w$'"`]/), 0);
    while (index > 0 && /[\w$.]/.test(code[index - 1])) index--;
    let i = starts.length - 1;
    while (i > 0 && starts[i] > index) i--;
    const what = code.slice(index, m.index + m[0].length).replace(/\s+/g, " ").trim().slice(0, 40);
    found.set(kind, { kind, what, line: added[i].line });
  }
  return [...found.values()];
}

/** The reason a guide gives for an always-shown hunk: `adds process control (process.exit( at line 3)`. */
export function riskReason(risks: Risk[]): string {
  return "always shown: adds " + risks.map((r) => `${r.kind} (${r.what} at line ${r.line})`).join("; ");
}
