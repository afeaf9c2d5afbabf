/**
 * Globs over repo-relative POSIX paths. Our own small engine rather than
 * `node:path`'s `matchesGlob`, which in Deno 2.9 needs --allow-env, lets `*`
 * skip dotfiles, and does not read a trailing "/" as "this directory".
 */
import { SpotError } from "../errors.ts";
import { foldPath } from "./path_rules.ts";

/** More alternatives than this is a mistake in the config, not a useful pattern. */
const MAX_ALTERNATIVES = 256;
const REGEX_SYNTAX = /[.*+?^${}()|[\]\\/]/g;
const CLASS_SYNTAX = /[[\]^\\-]/g;
const compiled = new Map<string, RegExp>();

function tooComplex(pattern: string): never {
  throw new SpotError(
    "CONFIG_INVALID",
    `Glob pattern ${
      JSON.stringify(pattern)
    } is too complex: it expands to over ${MAX_ALTERNATIVES} alternatives`,
  );
}

/** Expands the first top-level `{a,b}` group, recursively; `{a}` stays literal. */
function expandBraces(pattern: string, budget = { left: MAX_ALTERNATIVES }): string[] {
  let depth = 0;
  let start = -1;
  let commas: number[] = [];
  for (let i = 0; i < pattern.length; i++) {
    const ch = pattern[i];
    if (ch === "\\") i++;
    else if (ch === "{" && depth++ === 0) [start, commas] = [i, []];
    else if (ch === "," && depth === 1) commas.push(i);
    else if (ch === "}" && depth > 0 && --depth === 0 && commas.length > 0) {
      const cuts = [start, ...commas, i];
      const parts = cuts.slice(1).map((cut, k) => pattern.slice(cuts[k] + 1, cut));
      const [head, tail] = [pattern.slice(0, start), pattern.slice(i + 1)];
      return parts.flatMap((part) => expandBraces(head + part + tail, budget));
    }
  }
  if (--budget.left < 0) tooComplex(pattern);
  return [pattern];
}

/** A `[...]` class at `pattern[i]`, as regex source and its end; null when unclosed. */
function charClass(pattern: string, i: number): { source: string; end: number } | null {
  let j = i + 1;
  const negate = pattern[j] === "!" || pattern[j] === "^";
  if (negate) j++;
  let body = "";
  for (let first = true; j < pattern.length; j++, first = false) {
    const ch = pattern[j];
    if (ch === "]" && !first) return { source: negate ? `[^/${body}]` : `(?!/)[${body}]`, end: j };
    const escaped = ch === "\\" && j + 1 < pattern.length;
    const literal = escaped ? pattern[++j] : ch;
    // An unescaped "-" keeps its range meaning; everything else is taken literally.
    body += !escaped && ch === "-" ? "-" : literal.replace(CLASS_SYNTAX, "\\$&");
  }
  return null;
}

function segmentSource(segment: string): string {
  let source = "";
  for (let i = 0; i < segment.length; i++) {
    const ch = segment[i];
    const cls = ch === "[" ? charClass(segment, i) : null;
    if (cls) [source, i] = [source + cls.source, cls.end];
    else if (ch === "*") source += "[^/]*";
    else if (ch === "?") source += "[^/]";
    else if (ch === "\\" && i + 1 < segment.length) source += segment[++i].replace(REGEX_SYNTAX, "\\$&");
    else source += ch.replace(REGEX_SYNTAX, "\\$&");
  }
  return source;
}

/** Regex source for one brace-free pattern; `**` as a whole segment spans directories. */
function patternSource(pattern: string): string {
  // "dir/" means the directory and all below it; repeated "**" segments mean one.
  const segments = (pattern.endsWith("/") ? pattern + "**" : pattern).split("/")
    .filter((seg, k, all) => !(seg === "**" && all[k - 1] === "**"));
  if (segments.length === 1 && segments[0] === "**") return ".*";
  let source = "";
  segments.forEach((seg, k) => {
    const sep = k > 0 && segments[k - 1] !== "**" ? "/" : "";
    if (seg !== "**") source += sep + segmentSource(seg);
    else if (k === 0) source += "(?:.*/)?";
    else source += k === segments.length - 1 ? "(?:/.*)?" : "(?:/.*)?/";
  });
  return source;
}

/** Leading "/" or "./" cannot match a repo-relative path, so they are read as the root. */
function normalizePattern(pattern: string): string {
  return pattern.normalize("NFC").replace(/^(?:\.?\/)+/, "");
}

export function globToRegExp(pattern: string, options: { ignoreCase?: boolean } = {}): RegExp {
  const flags = options.ignoreCase ? "isu" : "su";
  const key = `${flags}:${pattern}`;
  let regex = compiled.get(key);
  if (!regex) {
    const sources = expandBraces(normalizePattern(pattern)).map(patternSource);
    try {
      regex = new RegExp(`^(?:${sources.join("|")})$`, flags);
    } catch (cause) {
      throw new SpotError("CONFIG_INVALID", `Glob pattern ${JSON.stringify(pattern)} is invalid: ${cause}`, {
        cause,
      });
    }
    compiled.set(key, regex);
  }
  return regex;
}

export function matchesGlob(path: string, pattern: string): boolean {
  return globToRegExp(pattern).test(path);
}

/**
 * Fail-closed match for deny lists: case-insensitive, also on the name a lenient
 * filesystem would store, also on every parent directory, and a pattern with no
 * inner "/" also against every single segment ("*.pem" catches "a/b/k.pem").
 */
export function matchesForbidden(path: string, pattern: string): boolean {
  const bare = normalizePattern(pattern).replace(/\/+$/, "");
  const regex = globToRegExp(pattern, { ignoreCase: true });
  const segmentRegex = bare.includes("/") ? null : globToRegExp(bare, { ignoreCase: true });
  for (const candidate of new Set([path, foldPath(path)])) {
    if (candidate.toLowerCase() === bare.toLowerCase()) return true;
    const segments = candidate.split("/");
    for (let depth = 1; depth <= segments.length; depth++) {
      if (regex.test(segments.slice(0, depth).join("/"))) return true;
    }
    if (segmentRegex && segments.some((seg) => segmentRegex.test(seg))) return true;
  }
  return false;
}
