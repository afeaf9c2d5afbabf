/**
 * One task of a job (docs/jobs.md): a role, what to do, what it waits for, and for a builder the paths it owns
 * and the checks spot runs on its work. Rules that need the whole graph (ids, `after`, cycles, overlapping
 * ownership) are in graphs/validate.ts.
 */
import { z } from "zod";

export const TASK_ID_PATTERN = /^[a-z][a-z0-9-]{0,31}$/;
export const TaskId = z.string().regex(TASK_ID_PATTERN, "expected 1-32 of [a-z0-9-], starting with a letter");

export const ROLES = ["scout", "research", "planner", "builder", "reviewer"] as const;
export const Role = z.enum(ROLES);
/** Roles whose turn may not write: the sandbox mounts their worktree read-only. */
export const READ_ONLY_ROLES: readonly Role[] = ["scout", "research", "planner", "reviewer"];

/** A glob character in an ownership entry: ownership is a plain file or directory prefix. */
const GLOB = /[*?[\]{}!]/;

/** Why an ownership entry is refused, or null: relative, plain, no `.`, `..`, `.git` or empty segment. */
export function ownershipProblem(entry: string): string | null {
  if (entry.startsWith("/") || /^[A-Za-z]:/.test(entry)) return "must be relative to the repository root";
  if (entry.includes("\\")) return 'must use "/" separators';
  if (GLOB.test(entry)) return "must be a file or directory prefix, not a glob";
  // deno-lint-ignore no-control-regex
  if (/[\u0000-\u001f]/.test(entry)) return "must not contain control characters";
  const segments = entry.replace(/\/$/, "").split("/");
  if (segments.some((s) => s === "")) return "must not have an empty segment";
  if (segments.some((s) => s === "." || s === "..")) return 'must not have a "." or ".." segment';
  if (segments.some((s) => s === ".git")) return 'must not reach into ".git"';
  return null;
}

/**
 * A host a research task's web tools may reach: `host:port`, or `*.domain:port` for the domain and every name
 * under it (what Deno's `--allow-net` takes, so the egress proxy's own permissions say the same). Never a bare
 * `*`, a scheme, a path or a wildcard anywhere else.
 */
const WEB_HOST = /^(\*\.)?([A-Za-z0-9-]+\.)*[A-Za-z0-9-]+:(\d{1,5})$/;

/** Why a web host entry is refused, or null. */
export function webHostProblem(entry: string): string | null {
  const m = WEB_HOST.exec(entry);
  if (!m) return 'expected host:port or *.domain:port (no scheme, path or bare "*")';
  const port = Number(m[3]);
  if (port < 1 || port > 65535) return "the port must be 1-65535";
  // `*.com:443` would open a whole top-level domain.
  if (m[1] && !entry.slice(2).split(":")[0].includes(".")) {
    return "a wildcard needs a domain with a dot under it";
  }
  return null;
}

/** One side of a `reviewBase`: a revision git can name, never one that reads as an option. */
const REVISION = /^[A-Za-z0-9_@][A-Za-z0-9._/@^~{}+-]*$/;

/** Why a `reviewBase` is refused, or null: `REV`, or `A..B`, each a plain revision. */
export function reviewBaseProblem(spec: string): string | null {
  const sides = spec.split("..");
  if (sides.length > 2 || spec.includes("...")) {
    return 'expected a revision (REV) or a range (A..B), not "..." or more than one ".."';
  }
  if (sides.some((s) => !REVISION.test(s) || s.includes(".."))) {
    return "each side must be a revision such as main, HEAD, HEAD~2, v1.2 or a commit id";
  }
  return null;
}

export const ReviewBase = z.string().min(1).max(300).superRefine((spec, ctx) => {
  const problem = reviewBaseProblem(spec);
  if (problem) ctx.addIssue({ code: "custom", message: problem });
});

export const WebHost = z.string().min(3).max(260).superRefine((entry, ctx) => {
  const problem = webHostProblem(entry);
  if (problem) ctx.addIssue({ code: "custom", message: problem });
});

export const Ownership = z.string().min(1).max(500).superRefine((entry, ctx) => {
  const problem = ownershipProblem(entry);
  if (problem) ctx.addIssue({ code: "custom", message: problem });
});

/** One check spot runs itself on a builder's work (the task's run verification). */
export const TaskCheck = z.object({
  id: z.string().regex(/^[a-z][a-z0-9-]{0,31}$/, "expected 1-32 of [a-z0-9-], starting with a letter"),
  argv: z.array(z.string().min(1).max(4000)).min(1).describe("Program and arguments, run without a shell"),
  timeoutMs: z.number().int().min(1000).max(1_200_000).default(120_000)
    .describe("Killed (with its process group) after this long"),
}).strict();

export const TaskModel = z.object({
  profile: z.string().min(1).max(100).optional().describe("The worker profile; routed when omitted"),
  id: z.string().min(1).max(300).optional().describe("The model of that profile"),
}).strict();

export const unique = <T extends z.ZodType<string>>(item: T) =>
  z.array(item).refine((a) => new Set(a).size === a.length, "items must be unique");

export const JobTask = z.object({
  id: TaskId.describe("Unique in the job"),
  role: Role,
  task: z.string().min(1).max(64_000).describe("What the worker is to do"),
  acceptance: unique(z.string().min(1).max(1000)).min(1).describe("What success means, one statement each"),
  instructions: z.array(z.string().min(1).max(4000)).default([]),
  context: z.array(z.string().min(1).max(16_000)).default([]),
  after: unique(TaskId).default([]).describe("Tasks that must succeed before this one starts"),
  model: TaskModel.optional(),
  ownership: unique(Ownership).optional().describe("Builders: the files or directory prefixes it may change"),
  checks: z.array(TaskCheck).optional().describe("Builders: what spot runs on its work"),
  noChecksReason: z.string().min(1).max(1000).optional().describe("Required of a builder without checks"),
  reviewOf: TaskId.optional().describe("Reviewers: the builder it reviews; must be in after"),
  reviewBase: ReviewBase.optional().describe(
    "Reviewers: review work already in the checkout instead of a builder's: REV (the checkout, its " +
      "uncommitted work included, against where it left REV; HEAD: the uncommitted work alone) or A..B",
  ),
  webHosts: unique(WebHost).optional()
    .describe("Research: the hosts its web tools may reach, instead of the job's webHosts"),
}).strict().superRefine((t, ctx) => {
  const builder = t.role === "builder";
  const issue = (path: string, message: string) => ctx.addIssue({ code: "custom", path: [path], message });
  if (builder && !t.ownership?.length) issue("ownership", "a builder must own at least one path");
  if (!builder && t.ownership !== undefined) issue("ownership", "only a builder owns paths");
  if (!builder && t.checks !== undefined) issue("checks", "only a builder has checks");
  if (builder && !t.checks?.length && !t.noChecksReason) {
    issue("checks", "a builder needs checks, or noChecksReason saying why it has none");
  }
  if (t.reviewOf !== undefined && t.role !== "reviewer") issue("reviewOf", "only a reviewer reviews a task");
  if (t.reviewBase !== undefined && t.role !== "reviewer") {
    issue("reviewBase", "only a reviewer reviews a range");
  }
  if (t.reviewBase !== undefined && t.reviewOf !== undefined) {
    issue("reviewBase", "a reviewer reviews a range (reviewBase) or a builder (reviewOf), not both");
  }
  if (t.webHosts !== undefined && t.role !== "research") {
    issue("webHosts", "only a research task has web tools: move the hosts to a research task");
  }
  if (t.reviewOf !== undefined && !t.after.includes(t.reviewOf)) {
    issue("reviewOf", `"${t.reviewOf}" must also be in after`);
  }
}).describe("One task of a job");

export type JobTaskInput = z.input<typeof JobTask>;
export type JobTask = z.infer<typeof JobTask>;
export type Role = z.infer<typeof Role>;
