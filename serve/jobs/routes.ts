/**
 * The jobs routes (`spot job`'s task graphs) on the dashboard's app: the list and one job, each as a page, an
 * HTML fragment the page's script refreshes, and JSON, as the dashboard does for runs. GET only; the app's
 * guard (Host, Origin, CSP) covers them like every route. A job id from the URL goes through the job store's
 * `jobDir`, which refuses anything but a job id (`..`, a slash) before any file is named.
 */
import type { Context, Hono } from "hono";
import { z } from "zod";
import { jobDir } from "../../graphs/store.ts";
import { TASK_ID_PATTERN } from "../../schemas/job/task.ts";
import type { SpotPaths } from "../../store/paths.ts";
import jobsCss from "../assets/jobs.css" with { type: "text" };
import jobsJs from "../assets/jobs.js" with { type: "text" };
import { loadRunDetail, runStateExists } from "../detail.ts";
import { clip, type Html } from "../views/format.ts";
import { renderJobPanel } from "./graph_view.ts";
import { renderJobsPanel } from "./list_view.ts";
import { renderJobsPage } from "./page.ts";
import { JOBS_PAGE, type JobView, listJobs, readJob } from "./read.ts";

/** The API may hand out bigger pages than the list shows, but not every job at once. */
const MAX_LIMIT = 500;

/** `static=1`: the page without its script (no live stream, no timers), for snapshots and screenshots. */
const Static = z.enum(["0", "1"]).optional().transform((v) => v === "1");

const ListQuery = z.object({
  page: z.coerce.number().int().min(1).max(1_000_000).default(1),
  limit: z.coerce.number().int().min(1).max(MAX_LIMIT).default(JOBS_PAGE),
  static: Static,
}).strict();

const JobQuery = z.object({
  task: z.string().regex(TASK_ID_PATTERN, "must be a task id such as api").optional(),
  static: Static,
}).strict();

export interface JobRouteDeps {
  paths: SpotPaths;
  now: () => Date;
}

type Problem = (c: Context, status: 400 | 404, code: string, message: string) => Response;

export function addJobRoutes(app: Hono, deps: JobRouteDeps, problem: Problem): void {
  const { paths, now } = deps;

  function query<S extends z.ZodType>(c: Context, schema: S): z.infer<S> | Response {
    const raw: Record<string, string> = {};
    for (const [k, v] of new URL(c.req.url).searchParams) if (v !== "") raw[k] = v;
    const parsed = schema.safeParse(raw);
    if (parsed.success) return parsed.data;
    const message = parsed.error.issues.map((i) => `${i.path.join(".") || "query"}: ${i.message}`).join("; ");
    return problem(c, 400, "BAD_REQUEST", `Invalid query: ${message}`);
  }

  async function list(
    c: Context,
    show: (panel: () => Html, data: object, isStatic: boolean) => Response | Promise<Response>,
  ): Promise<Response> {
    const q = query(c, ListQuery);
    if (q instanceof Response) return q;
    const { total, jobs } = await listJobs(paths, q);
    const at = now();
    return show(() => renderJobsPanel({ ...q, total, jobs, now: at }), {
      ok: true,
      generatedAt: at.toISOString(),
      total,
      page: q.page,
      limit: q.limit,
      jobs,
    }, q.static);
  }

  /** The job the URL names, or the 404 every route gives for a bad or unknown id. */
  async function job(
    c: Context,
    show: (view: JobView, panel: () => Promise<Html>, isStatic: boolean) => Response | Promise<Response>,
  ): Promise<Response> {
    const q = query(c, JobQuery);
    if (q instanceof Response) return q;
    const id = c.req.param("jobId") ?? "";
    const missing = () => problem(c, 404, "JOB_NOT_FOUND", `No job "${clip(id, 100)}" on this dashboard`);
    try {
      jobDir(paths, id);
    } catch {
      return missing();
    }
    const view = await readJob(paths, id, now());
    if (!view) return missing();
    const open = q.task ?? null;
    const runId = view.taskViews.find((t) => t.id === open)?.runId ?? null;
    return show(
      view,
      async () => {
        const detail = runId ? await loadRunDetail(paths, runId) : null;
        const runCreated = detail !== null || !runId || await runStateExists(paths, runId);
        return renderJobPanel({ job: view, open, detail, runCreated, static: q.static });
      },
      q.static,
    );
  }

  app.get(
    "/assets/jobs.js",
    (c) => c.body(jobsJs, 200, { "content-type": "text/javascript; charset=utf-8" }),
  );
  app.get("/assets/jobs.css", (c) => c.body(jobsCss, 200, { "content-type": "text/css; charset=utf-8" }));

  app.get(
    "/jobs",
    (c) => list(c, (panel, _, isStatic) => c.html(renderJobsPage("spot jobs", panel(), null, isStatic))),
  );
  app.get("/api/fragment/jobs", (c) => list(c, (panel) => c.html(panel())));
  app.get("/api/jobs", (c) => list(c, (_, data) => c.json(data)));

  app.get(
    "/jobs/:jobId",
    (c) =>
      job(
        c,
        async (view, panel, isStatic) =>
          c.html(renderJobsPage(`spot job ${view.jobId}`, await panel(), view.jobId, isStatic)),
      ),
  );
  app.get("/api/fragment/jobs/:jobId", (c) => job(c, async (_, panel) => c.html(await panel())));
  app.get("/api/jobs/:jobId", (c) =>
    job(c, (view) => {
      const { taskViews, ...rest } = view;
      return c.json({ ok: true, generatedAt: now().toISOString(), job: { ...rest, tasks: taskViews } });
    }));
}
