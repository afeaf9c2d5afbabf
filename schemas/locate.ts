/**
 * Reads a JSON (or JSONC) file against a zod schema and reports every problem
 * as `path: message` with the line:col of the offending value.
 */
import { findNodeAtLocation, type Node, type ParseError, parseTree, printParseErrorCode } from "jsonc-parser";
import type { z } from "zod";
import type { Issue } from "../errors.ts";

function lineCol(text: string, offset: number): { line: number; col: number } {
  let line = 1;
  let start = 0;
  for (let i = 0; i < offset && i < text.length; i++) {
    if (text[i] === "\n") {
      line++;
      start = i + 1;
    }
  }
  return { line, col: offset - start + 1 };
}

function pathString(path: readonly PropertyKey[]): string {
  let out = "";
  for (const key of path) {
    if (typeof key === "number") out += `[${key}]`;
    else out += out ? `.${String(key)}` : String(key);
  }
  return out || "(root)";
}

/** The deepest node that exists along `path`, so a missing key points at its parent object. */
function nearestNode(root: Node, path: readonly PropertyKey[]): Node {
  for (let n = path.length; n >= 0; n--) {
    const node = findNodeAtLocation(root, path.slice(0, n) as (string | number)[]);
    if (node) return node.parent?.type === "property" && n > 0 ? node.parent : node;
  }
  return root;
}

export type Parsed<T> = { ok: true; value: T } | { ok: false; issues: Issue[] };

export type JsonPath = (string | number)[];

/** A value a rewrite moved: problems found at `to` are reported at `from`, where the file has it. */
export interface Moved {
  from: JsonPath;
  to: JsonPath;
}

export interface ParseOptions {
  jsonc?: boolean;
  /** Changes the parsed value before it is validated (a config's legacy keys). */
  rewrite?: (data: unknown) => { value: unknown; moved: Moved[] };
}

/** Where a path's value is written in the text (its parent object when the key is missing). */
export function locatePath(text: string, path: JsonPath): { line: number; col: number } {
  const root = parseTree(text, [], { allowTrailingComma: true });
  return lineCol(text, root ? nearestNode(root, path).offset : 0);
}

/** The path as the file writes it: a moved value's problem belongs to its old key. */
function sourcePath(path: readonly PropertyKey[], moved: Moved[]): readonly PropertyKey[] {
  for (const m of moved) {
    if (m.to.length <= path.length && m.to.every((k, i) => path[i] === k)) {
      return [...m.from, ...path.slice(m.to.length)];
    }
  }
  return path;
}

/** Parses text (comments and trailing commas allowed when `jsonc`) and validates it. */
export function parseWithSchema<S extends z.ZodType>(
  text: string,
  schema: S,
  options: ParseOptions = {},
): Parsed<z.infer<S>> {
  const errors: ParseError[] = [];
  const root = parseTree(text, errors, {
    allowTrailingComma: options.jsonc ?? false,
    disallowComments: !options.jsonc,
  });
  if (errors.length > 0 || !root) {
    const issues = errors.map((e) => ({
      path: "(syntax)",
      message: `invalid JSON: ${printParseErrorCode(e.error)}`,
      ...lineCol(text, e.offset),
    }));
    return { ok: false, issues: issues.length ? issues : [{ path: "(root)", message: "empty document" }] };
  }
  const duplicates = duplicateKeys(root, []).map(({ path, node }) => ({
    path: pathString(path),
    message: `duplicate key: "${String(path[path.length - 1])}" appears more than once`,
    ...lineCol(text, node.offset),
  }));
  // A repeated key is ambiguous (which allowedPaths did the author mean?), so it is refused, not merged.
  if (duplicates.length > 0) return { ok: false, issues: duplicates };
  const parsed = JSON.parse(JSON.stringify(nodeValue(root)));
  const { value: data, moved } = options.rewrite?.(parsed) ?? { value: parsed, moved: [] };
  const result = schema.safeParse(data);
  if (result.success) return { ok: true, value: result.data };
  const issues = result.error.issues.map((issue) => {
    const keys = issue.code === "unrecognized_keys" ? issue.keys : [];
    const path = sourcePath(keys.length === 1 ? [...issue.path, keys[0]] : issue.path, moved);
    const node = nearestNode(root, path);
    return { path: pathString(path), message: issue.message, ...lineCol(text, node.offset) };
  });
  return { ok: false, issues };
}

function duplicateKeys(node: Node, path: (string | number)[]): { path: (string | number)[]; node: Node }[] {
  const out: { path: (string | number)[]; node: Node }[] = [];
  if (node.type === "object") {
    const seen = new Set<string>();
    for (const property of node.children ?? []) {
      const key = String(property.children![0].value);
      if (seen.has(key)) out.push({ path: [...path, key], node: property });
      seen.add(key);
      out.push(...duplicateKeys(property.children![1], [...path, key]));
    }
  } else if (node.type === "array") {
    (node.children ?? []).forEach((child, i) => out.push(...duplicateKeys(child, [...path, i])));
  }
  return out;
}

function nodeValue(node: Node): unknown {
  switch (node.type) {
    case "object":
      return Object.fromEntries(
        (node.children ?? []).map((p) => [p.children![0].value, nodeValue(p.children![1])]),
      );
    case "array":
      return (node.children ?? []).map(nodeValue);
    default:
      return node.value;
  }
}

/** `file:line:col path: message`, one per line, as the CLI prints them. */
export function formatIssues(file: string, issues: Issue[]): string {
  return issues.map((i) => `${file}:${i.line ?? 0}:${i.col ?? 0} ${i.path}: ${i.message}`).join("\n");
}
