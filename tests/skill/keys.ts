/**
 * The field names the skill teaches, held against the JSON Schemas it ships: a paragraph or list item that
 * names a schema file must name every key of that schema, and no word that is neither a key nor a value the
 * schema allows (the old review policy's `severity` was one: following it gave REVIEW_INVALID).
 */

type Json = { [key: string]: unknown };

/** Paragraphs and list items (with their continuation lines) of a markdown text. */
export function blocks(text: string): string[] {
  const out: string[] = [];
  let current: string[] = [];
  const flush = () => {
    if (current.length) out.push(current.join("\n"));
    current = [];
  };
  for (const line of text.split("\n")) {
    if (line.trim() === "" || line.startsWith("```")) flush();
    else if (/^\s*(-|\d+\.)\s/.test(line)) {
      flush();
      current.push(line);
    } else current.push(line);
  }
  flush();
  return out;
}

/** Code spans that read like a field name or a value: `goal`, `allowedPaths`, `approve`. */
export function wordSpans(block: string): string[] {
  return [...block.matchAll(/`([a-z][A-Za-z0-9]*)`/g)].map((m) => m[1]);
}

/** Every property name anywhere in a JSON Schema, and every string value its enums and consts allow. */
export function vocabulary(schema: unknown): { keys: Set<string>; values: Set<string> } {
  const keys = new Set<string>();
  const values = new Set<string>();
  const walk = (node: unknown) => {
    if (Array.isArray(node)) return node.forEach(walk);
    if (!node || typeof node !== "object") return;
    const obj = node as Json;
    if (obj.properties && typeof obj.properties === "object") {
      for (const k of Object.keys(obj.properties as Json)) keys.add(k);
    }
    for (const v of (Array.isArray(obj.enum) ? obj.enum : [])) if (typeof v === "string") values.add(v);
    if (typeof obj.const === "string") values.add(obj.const);
    Object.values(obj).forEach(walk);
  };
  walk(schema);
  return { keys, values };
}

/**
 * Problems of the blocks of `text` that name `schemaFile`: a key of the schema they leave out (with
 * `complete`, every key anywhere in it must be there), a word that is neither a key nor an allowed value.
 */
export function keyProblems(
  text: string,
  where: string,
  schemaFile: string,
  schema: unknown,
  options: { complete: boolean },
): string[] {
  const { keys, values } = vocabulary(schema);
  const problems: string[] = [];
  const named = blocks(text).filter((b) => b.includes(schemaFile));
  if (named.length === 0) return [`${where}: nothing names ${schemaFile}`];
  for (const block of named) {
    const spans = new Set(wordSpans(block));
    for (const key of options.complete ? keys : []) {
      if (!spans.has(key)) problems.push(`${where}: the text at ${schemaFile} leaves out "${key}"`);
    }
    for (const word of spans) {
      if (!keys.has(word) && !values.has(word)) {
        problems.push(`${where}: "${word}" beside ${schemaFile} is no key or value of it`);
      }
    }
  }
  return problems;
}
