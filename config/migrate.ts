/**
 * The text half of `spot config migrate`: the same legacy mapping the loader
 * applies, made to the file itself, key by key. A renamed key is renamed in
 * place and a removed one takes only its own lines, so the layout and the
 * comments elsewhere survive; a comment inside or beside a changed key may not.
 */
import { applyEdits, findNodeAtLocation, modify, type Node, parse, parseTree } from "jsonc-parser";
import type { ConfigWarning } from "./loaded.ts";
import { readConfig } from "./parse.ts";
import { type LegacyEdit, mapLegacyConfig } from "./legacy.ts";

export interface Migration {
  /** The rewritten text, or null when the file uses no legacy key. */
  text: string | null;
  /** One per legacy key, as the loader warns about it. */
  changes: ConfigWarning[];
}

const FORMAT = { insertSpaces: true, tabSize: 2, eol: "\n" };

const splice = (text: string, start: number, end: number, by = "") =>
  text.slice(0, start) + by + text.slice(end);

/** Removes a property and its comma, and the lines it had to itself. */
function removeProperty(text: string, property: Node): string {
  const object = property.parent!;
  const siblings = object.children!;
  if (siblings.length === 1 && !text.slice(object.offset, object.offset + object.length).includes("\n")) {
    return splice(text, object.offset, object.offset + object.length, "{}");
  }
  const i = siblings.indexOf(property);
  let start = property.offset;
  let end = property.offset + property.length;
  const comma = /^[ \t]*,/.exec(text.slice(end));
  if (comma) {
    end += comma[0].length;
  } else if (i > 0) {
    const prevEnd = siblings[i - 1].offset + siblings[i - 1].length;
    const before = /^\s*,/.exec(text.slice(prevEnd, start));
    if (before) return splice(text, prevEnd, end);
  }
  const lineStart = text.lastIndexOf("\n", start - 1) + 1;
  const rest = /^[ \t]*\n/.exec(text.slice(end));
  if (/^[ \t]*$/.test(text.slice(lineStart, start)) && rest) {
    start = lineStart;
    end += rest[0].length;
  }
  return splice(text, start, end);
}

function applyEdit(text: string, edit: LegacyEdit): string {
  const root = parseTree(text, [], { allowTrailingComma: true });
  const node = root ? findNodeAtLocation(root, edit.path) : undefined;
  const property = node?.parent?.type === "property" ? node.parent : undefined;
  if ("renameTo" in edit) {
    const key = property!.children![0];
    return splice(text, key.offset, key.offset + key.length, JSON.stringify(edit.renameTo));
  }
  if ("remove" in edit) return property ? removeProperty(text, property) : text;
  if (node) return splice(text, node.offset, node.offset + node.length, JSON.stringify(edit.value));
  return applyEdits(text, modify(text, edit.path, edit.value, { formattingOptions: FORMAT }));
}

/** Refuses (CONFIG_INVALID, with line:col) a file that would not load even with its legacy keys mapped. */
export function migrateConfigText(file: string, text: string): Migration {
  const { warnings } = readConfig(file, text);
  if (warnings.length === 0) return { text: null, changes: [] };
  // readConfig has refused anything jsonc-parser cannot read, and duplicate keys.
  const data = parse(text, [], { allowTrailingComma: true });
  const out = mapLegacyConfig(data).edits.reduce(applyEdit, text);
  return { text: out.endsWith("\n") ? out : out + "\n", changes: warnings };
}
