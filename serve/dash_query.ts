/**
 * The dashboard's view state (filters, page, expanded rows), parsed once from
 * the query string and written back into links. The page keeps it in its URL,
 * so a reload, a bookmark and the no-script fallback all show the same view.
 */
import { z } from "zod";
import { Status } from "../schemas/run_state.ts";
import { RUN_ID_PATTERN } from "../schemas/task_contract.ts";

/** Rows per page: enough to scan at a glance, small enough that a page costs the same at any run count. */
export const PAGE_SIZE = 25;
/** The API may hand out bigger pages, but not the whole index at once. */
export const MAX_LIMIT = 500;
/** Each expanded row reads a few files; a handful keeps a refresh cheap. */
export const MAX_EXPANDED = 5;

const CallerName = z.string().regex(/^[a-z][a-z0-9-]{0,39}$/, "must be a caller name such as codex");

export const DashQuery = z.object({
  caller: CallerName.optional(),
  status: Status.optional(),
  page: z.coerce.number().int().min(1).max(1_000_000).default(1),
  limit: z.coerce.number().int().min(1).max(MAX_LIMIT).default(PAGE_SIZE),
  expand: z.string().optional().transform((v, ctx) => {
    const ids = (v ?? "").split(",").filter((s) => s !== "");
    for (const id of ids) {
      if (!RUN_ID_PATTERN.test(id)) {
        ctx.addIssue({ code: "custom", message: `"${id.slice(0, 80)}" is not a run id` });
        return z.NEVER;
      }
    }
    return [...new Set(ids)].slice(0, MAX_EXPANDED);
  }),
  panel: z.enum(["all", "runs", "plots", "connections"]).default("all"),
  /** The plots' period; chosen from the runs' span when left out. */
  by: z.enum(["day", "week"]).optional(),
  /** `static=1`: the page without its script (no live stream, no timers), for snapshots and screenshots. */
  static: z.enum(["0", "1"]).optional().transform((v) => v === "1"),
}).strict();
export type DashQuery = z.infer<typeof DashQuery>;

/** Parses a query string; the error message names every bad parameter. */
export function parseDashQuery(
  params: URLSearchParams,
): { ok: true; query: DashQuery } | { ok: false; message: string } {
  const raw: Record<string, string> = {};
  for (const [k, v] of params) if (v !== "") raw[k] = v;
  const parsed = DashQuery.safeParse(raw);
  if (parsed.success) return { ok: true, query: parsed.data };
  const message = parsed.error.issues.map((i) => `${i.path.join(".") || "query"}: ${i.message}`).join("; ");
  return { ok: false, message };
}

/** The query string for a view, leaving out defaults; `over` replaces fields. */
export function dashHref(q: DashQuery, over: Partial<DashQuery> = {}): string {
  const v = { ...q, ...over };
  const p = new URLSearchParams();
  if (v.caller) p.set("caller", v.caller);
  if (v.status) p.set("status", v.status);
  if (v.page > 1) p.set("page", String(v.page));
  if (v.limit !== PAGE_SIZE) p.set("limit", String(v.limit));
  if (v.expand.length) p.set("expand", v.expand.join(","));
  if (v.by) p.set("by", v.by);
  if (v.static) p.set("static", "1");
  const s = p.toString();
  return s ? `?${s}` : "?";
}

/** The expand list with `runId` toggled. */
export function toggled(expand: string[], runId: string): string[] {
  return expand.includes(runId)
    ? expand.filter((id) => id !== runId)
    : [runId, ...expand].slice(0, MAX_EXPANDED);
}
