/**
 * What a task's worker reports at the end of its turn, as one JSON object in its final text (the pinata seed's
 * worker result): a status, a summary, and by role the brief, the sources or the review. Rules that need the
 * task (a reviewer's targets, a scout's brief) are in graphs/result.ts.
 */
import { z } from "zod";
import { TaskId } from "./task.ts";

export const SEVERITIES = ["critical", "high", "medium", "low", "info"] as const;
/** Findings that forbid an approving review. */
export const BLOCKING_SEVERITIES: ReadonlySet<string> = new Set(["critical", "high", "medium"]);

const RelativePath = z.string().min(1).max(500).refine(
  (p) => !p.startsWith("/") && !p.split("/").includes(".."),
  "must be a path relative to the repository",
);

export const ResultCheck = z.object({
  name: z.string().min(1).max(200),
  status: z.enum(["passed", "failed", "not-run"]),
  detail: z.string().max(4000).optional(),
}).strict();

export const Finding = z.object({
  severity: z.enum(SEVERITIES).describe("Its priority: critical and high first"),
  message: z.string().min(1).max(4000).describe("The problem"),
  evidence: z.string().max(4000).optional().describe("Where it shows: a file and line, a command's output"),
  requiredChange: z.string().min(1).max(4000).optional().describe("Reviewers: what must change"),
  taskId: TaskId.optional().describe("Reviewers of several builders: the builder it is about"),
}).strict();

export const Source = z.object({
  url: z.string().url().refine((u) => /^https?:\/\//.test(u) && !/^https?:\/\/[^/]*@/.test(u), {
    message: "must be an http(s) URL without credentials",
  }),
  title: z.string().min(1).max(500),
  supports: z.string().min(1).max(4000),
  applicability: z.string().max(4000).optional(),
}).strict();

export const ReviewVerdict = z.object({
  taskId: TaskId.describe("The builder reviewed (a reviewer of a reviewBase range: its own id)"),
  fingerprint: z.string().regex(/^[0-9a-f]{64}$/, "must be the 64 hex digits the prompt gave"),
  verdict: z.enum(["approve", "changes_requested"]),
}).strict();

export const TaskResult = z.object({
  schemaVersion: z.literal(1).default(1),
  status: z.enum(["succeeded", "failed", "blocked", "cancelled"]),
  summary: z.string().min(1).max(8000),
  changedFiles: z.array(RelativePath).default([]).refine(
    (a) => new Set(a).size === a.length,
    "must be unique",
  ),
  checks: z.array(ResultCheck).default([]),
  findings: z.array(Finding).default([]),
  blockers: z.array(z.string().min(1).max(4000)).default([]),
  brief: z.string().min(1).max(64_000).optional().describe("Scouts and planners: what the next tasks need"),
  sources: z.array(Source).default([]).describe("Research: what it read"),
  review: z.union([ReviewVerdict, z.array(ReviewVerdict).min(1)]).optional()
    .describe("Reviewers: one verdict per builder reviewed, echoing its fingerprint"),
}).strict().describe("The JSON object a job task's worker ends its turn with");

export type TaskResult = z.infer<typeof TaskResult>;
export type ReviewVerdict = z.infer<typeof ReviewVerdict>;
