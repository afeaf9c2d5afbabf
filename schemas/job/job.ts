/** A job a parent hands spot at once: a graph of tasks, the repository they work on, and how it integrates. */
import { z } from "zod";
import { JobTask, TaskCheck, unique, WebHost } from "./task.ts";

export const JOB_LIMITS = {
  /** The seed's default: three workers at once keep a laptop responsive. */
  concurrency: { default: 3, max: 16 },
  taskMs: { default: 1_200_000, max: 86_400_000 },
  jobMs: { default: 5_400_000, max: 86_400_000 },
  costUsd: { max: 10_000 },
  maxTurns: { max: 1_000 },
  maxToolCalls: { max: 100_000 },
  repairs: { default: 3, max: 50 },
} as const;

export const JobLimits = z.object({
  concurrency: z.number().int().min(1).max(JOB_LIMITS.concurrency.max).default(JOB_LIMITS.concurrency.default)
    .describe("Tasks running at once (the config's maxConcurrentRuns still holds)"),
  taskMs: z.number().int().min(1000).max(JOB_LIMITS.taskMs.max).default(JOB_LIMITS.taskMs.default)
    .describe("A task running longer fails"),
  jobMs: z.number().int().min(1000).max(JOB_LIMITS.jobMs.max).default(JOB_LIMITS.jobMs.default)
    .describe("The job is cancelled after this long"),
  costUsd: z.number().positive().max(JOB_LIMITS.costUsd.max).optional()
    .describe("The job's cost budget in dollars: each worker launches with its share reserved"),
  maxTurns: z.number().int().min(1).max(JOB_LIMITS.maxTurns.max).optional()
    .describe("Model calls each task's worker may make in a turn"),
  maxToolCalls: z.number().int().min(0).max(JOB_LIMITS.maxToolCalls.max).optional()
    .describe("Tool calls each task's worker may make in a turn"),
  repairs: z.number().int().min(0).max(JOB_LIMITS.repairs.max).default(JOB_LIMITS.repairs.default)
    .describe("New attempts spot job repair may start in the whole job"),
}).strict();

export const JobConfig = z.object({
  limits: JobLimits.default(JobLimits.parse({})),
  integration: z.enum(["commit", "apply"]).default("commit")
    .describe("commit: cherry-pick each builder in after order; apply: file deltas into the checkout"),
  profile: z.string().min(1).max(100).optional().describe("The worker profile of tasks that name none"),
  sandbox: z.enum(["auto", "bwrap", "none"]).optional().describe("The OS sandbox of every task's run"),
}).strict();

export const JobNotify = z.object({
  argv: z.array(z.string().min(1).max(4000)).min(1).describe("Program and arguments, run without a shell"),
  timeoutMs: z.number().int().min(1000).max(300_000).default(30_000)
    .describe("Killed (with its process group) after this long"),
}).strict();

export const Job = z.object({
  schemaVersion: z.literal(1).default(1),
  cwd: z.string().refine((v) => v.startsWith("/"), "must be an absolute path").optional()
    .describe("The repository; the git toplevel of the current directory when omitted"),
  approval: z.string().min(1).max(1000).describe("Who approved delegating this job, in their words"),
  allowWrites: z.boolean().default(false).describe("Builders may run; integration may change the checkout"),
  includeUncommitted: z.boolean().default(true)
    .describe(
      "Tasks start from the checkout's uncommitted work too (snapshotted once, to refs/spot/<job>/base)",
    ),
  instructions: z.array(z.string().min(1).max(4000)).default([]).describe("Told to every task"),
  webHosts: unique(WebHost).default([])
    .describe("The hosts a research task's web tools may reach (host:port, *.domain:port); none by default"),
  config: JobConfig.default(JobConfig.parse({})),
  tasks: z.array(JobTask).default([]),
  integratedChecks: z.array(TaskCheck).default([]).describe("Run on the integrated result"),
  noIntegratedChecksReason: z.string().min(1).max(1000).optional(),
  notify: JobNotify.optional().describe("Run once when the job settles, with its summary JSON on stdin"),
}).strict().superRefine((job, ctx) => {
  if (job.allowWrites && job.integratedChecks.length === 0 && !job.noIntegratedChecksReason) {
    ctx.addIssue({
      code: "custom",
      path: ["integratedChecks"],
      message: "a job that writes needs integratedChecks, or noIntegratedChecksReason saying why it has none",
    });
  }
  job.tasks.forEach((t, i) => {
    if (t.role === "builder" && !job.allowWrites) {
      ctx.addIssue({
        code: "custom",
        path: ["tasks", i, "role"],
        message: "a builder needs allowWrites: true",
      });
    }
  });
}).describe("A graph of tasks spot runs, reviews and integrates as one job");

export type JobInput = z.input<typeof Job>;
export type Job = z.infer<typeof Job>;
