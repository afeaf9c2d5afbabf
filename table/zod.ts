/**
 * A verb's input as a zod schema, built from its fields when a face needs one (the MCP server, at start).
 * Kept out of the table's modules so the CLI's fast path never loads zod (docs/performance.md). Every
 * property carries its field's description; fixed values are an enum; a document is its JSON Schema from
 * schemas/ inline, or a file's path. A document's keys are checked by spot's own loader (with file:line:col
 * and the verb's error code), so here it is only required to be an object.
 */
import { z } from "zod";
import task from "../schemas/task-contract.schema.json" with { type: "json" };
import review from "../schemas/review-result.schema.json" with { type: "json" };
import job from "../schemas/job/job.schema.json" with { type: "json" };
import jobTask from "../schemas/job/job-task.schema.json" with { type: "json" };
import { type DocKind, type Face, type Field, fieldOn, namedHelp } from "./field.ts";
import type { AnyVerb } from "./verb.ts";

const DOC_SCHEMAS: Record<DocKind, Record<string, unknown>> = { task, review, job, "job-task": jobTask };

/** The call's working directory, for a verb whose relative paths (or repository) depend on it. */
export const CWD_HELP = "directory the call works in, as the CLI's working directory (default: the server's)";

/** A document's JSON Schema without the keys that only make sense at a file's top. */
function inlineSchema(kind: DocKind): Record<string, unknown> {
  const { $schema: _schema, $id: _id, ...rest } = DOC_SCHEMAS[kind];
  return rest;
}

function valueSchema(field: Field): z.ZodType {
  switch (field.kind) {
    case "text":
      return field.values ? z.enum(field.values as [string, ...string[]]) : z.string();
    case "flag":
      return z.boolean();
    case "number": {
      let n = field.int ? z.number().int() : z.number();
      if (field.min !== undefined) n = field.exclusiveMin ? n.gt(field.min) : n.min(field.min);
      if (field.max !== undefined) n = n.max(field.max);
      return n;
    }
    case "list":
      return z.array(z.string()).min(field.required ? 1 : 0);
    case "doc":
      return z.union([
        z.record(z.string(), z.unknown()).meta({
          ...inlineSchema(field.doc),
          description: `${field.help}, as an object`,
        }),
        z.string().describe("a JSON file's path"),
      ]);
  }
}

function fieldSchema(field: Field, face: Face): z.ZodType {
  const value = valueSchema(field).describe(namedHelp(field));
  const fallback = face === "mcp" && field.kind === "flag" && field.mcpDefault !== undefined
    ? field.mcpDefault
    : "default" in field
    ? field.default
    : undefined;
  if (fallback !== undefined) return (value as z.ZodType<unknown>).default(fallback);
  return field.required ? value : value.optional();
}

/** The verb's input on a face, as a strict object (a misspelt key is refused, not dropped). */
export function inputSchema(v: AnyVerb, face: Face): z.ZodObject {
  const shape: Record<string, z.ZodType> = {};
  for (const [key, field] of Object.entries(v.input as Record<string, Field>)) {
    if (fieldOn(field, face)) shape[key] = fieldSchema(field, face);
  }
  if (v.cwd && !("cwd" in shape)) shape.cwd = z.string().optional().describe(CWD_HELP);
  return z.strictObject(shape);
}
