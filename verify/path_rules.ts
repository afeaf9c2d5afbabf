/**
 * Rules for the names a worker may give files. A name is judged by how every
 * filesystem and terminal a checkout may meet will read it, not just by git:
 * macOS ignores invisible code points and case, Windows drops trailing dots and
 * spaces, and a terminal reorders text around bidi controls.
 */

/** Bidi controls reorder what a reviewer sees (CVE-2021-42574, "Trojan Source"). */
const BIDI = new Set([
  0x061c,
  0x200e,
  0x200f,
  0x202a,
  0x202b,
  0x202c,
  0x202d,
  0x202e,
  0x2066,
  0x2067,
  0x2068,
  0x2069,
]);
/** Zero-width and format code points; HFS+ ignores several of them in names. */
const INVISIBLE = new Set([
  0x00ad,
  0x200b,
  0x200c,
  0x200d,
  0x2060,
  0x206a,
  0x206b,
  0x206c,
  0x206d,
  0x206e,
  0x206f,
  0xfeff,
]);
/** What a decoder leaves for bytes that are not UTF-8, so the true name is unknown. */
const REPLACEMENT = 0xfffd;
/** Windows' 8.3 short name of ".git", which git itself refuses (CVE-2014-9390). */
const DOT_GIT_SHORT_NAME = "git~1";

const codePoint = (ch: string): string =>
  `U+${ch.codePointAt(0)!.toString(16).toUpperCase().padStart(4, "0")}`;

function isControl(cp: number): boolean {
  return cp < 0x20 || (cp >= 0x7f && cp <= 0x9f);
}

function isHidden(cp: number): boolean {
  return BIDI.has(cp) || INVISIBLE.has(cp);
}

/**
 * The name a lenient filesystem would store: NFC, lower case, invisible code
 * points dropped, trailing dots and spaces dropped ("." and ".." stay).
 */
export function foldSegment(segment: string): string {
  const visible = [...segment.normalize("NFC")].filter((ch) => !isHidden(ch.codePointAt(0)!)).join("");
  const lower = visible.toLowerCase();
  return lower === "." || lower === ".." ? lower : lower.replace(/[. ]+$/, "");
}

export function foldPath(path: string): string {
  return path.split("/").map(foldSegment).join("/");
}

/** Whether a segment names git's own directory in any spelling a filesystem accepts. */
export function isDotGit(segment: string): boolean {
  // NTFS reads "name:stream" as the file "name", so ".git::$INDEX_ALLOCATION" is ".git".
  const name = foldSegment(foldSegment(segment).split(":")[0]);
  return name === ".git" || name === DOT_GIT_SHORT_NAME;
}

/** Quotes a value for a message, escaping anything a terminal would hide or obey. */
export function quote(value: string): string {
  return [...JSON.stringify(value)].map((ch) => {
    const cp = ch.codePointAt(0)!;
    return isControl(cp) || isHidden(cp) ? `\\u${cp.toString(16).padStart(4, "0")}` : ch;
  }).join("");
}

function characterProblems(path: string): string[] {
  const problems: string[] = [];
  for (const ch of path) {
    const cp = ch.codePointAt(0)!;
    if (isControl(cp)) problems.push(`it contains a control character (${codePoint(ch)})`);
    else if (BIDI.has(cp)) problems.push(`it contains a bidi control character (${codePoint(ch)})`);
    else if (INVISIBLE.has(cp)) problems.push(`it contains a zero-width character (${codePoint(ch)})`);
    else if (cp === REPLACEMENT) problems.push("it is not valid UTF-8");
  }
  return problems;
}

function segmentProblems(segment: string): string[] {
  if (segment === "") return ["it contains an empty segment"];
  if (segment === "." || segment === "..") return [`it contains a "${segment}" segment`];
  const problems: string[] = [];
  if (segment.startsWith("-")) problems.push(`segment ${quote(segment)} starts with "-"`);
  if (segment === ".git") problems.push('it contains a ".git" segment');
  else if (isDotGit(segment)) problems.push(`segment ${quote(segment)} is another spelling of ".git"`);
  return problems;
}

/** Every reason a repo-relative path is unsafe to write; empty when it is fine. */
export function pathProblems(path: string): string[] {
  if (path === "") return ["it is empty"];
  const problems: string[] = [];
  const absolute = path.startsWith("/") || /^[A-Za-z]:/.test(path);
  if (absolute) problems.push("it is absolute");
  // On Windows a backslash separates directories, so "..\\x" climbs out of the tree.
  if (path.includes("\\")) problems.push("it contains a backslash");
  const segments = path.split("/").slice(path.startsWith("/") ? 1 : 0);
  problems.push(...segments.flatMap(segmentProblems), ...characterProblems(path));
  return [...new Set(problems)];
}

/**
 * Pairs of paths (or their parent directories) that a case-insensitive or
 * normalizing filesystem would store as one name, shallowest clash only.
 */
export function caseFoldCollisions(paths: string[]): [string, string][] {
  const seen = new Map<string, string>();
  const pairs = new Map<string, [string, string]>();
  for (const path of paths) {
    const segments = path.split("/");
    for (let depth = 1; depth <= segments.length; depth++) {
      const name = segments.slice(0, depth).join("/");
      const key = foldPath(name);
      const first = seen.get(key);
      if (first === undefined) seen.set(key, name);
      if (first === undefined || first === name) continue;
      pairs.set([first, name].sort().join("\0"), [first, name]);
      break;
    }
  }
  return [...pairs.values()];
}
