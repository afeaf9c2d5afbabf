/** The task contract a parent writes: what to do, where, and how spot checks it. */
import { z } from "zod";
import { RUN_ID_PATTERN } from "./constants.ts";

export { RUN_ID_PATTERN };

export const RunId = z.string().regex(
  RUN_ID_PATTERN,
  "expected 3-80 of [A-Za-z0-9._-], starting alphanumeric",
)
  .refine((v) => !v.includes(".."), 'must not contain ".."')
  .refine((v) => !v.endsWith(".lock"), 'must not end with ".lock"');

/** A repo-relative glob; `..`, absolute paths and backslashes are refused at the door. */
export const RepoGlob = z.string().min(1).max(500)
  .refine((v) => !v.startsWith("/") && !/^[A-Za-z]:/.test(v), "must be relative to the repository root")
  .refine((v) => !v.split("/").includes(".."), 'must not contain a ".." segment')
  .refine((v) => !v.includes("\\"), 'must use "/" separators')
  // deno-lint-ignore no-control-regex
  .refine((v) => !/[\u0000-\u001f]/.test(v), "must not contain control characters");

export const ENV_NAME_PATTERN = /^[A-Z_][A-Z0-9_]*$/;

export const VerificationCommand = z.object({
  argv: z.array(z.string().min(1).max(4000)).min(1)
    .describe("Program and arguments, run without a shell"),
  timeoutSeconds: z.number().int().min(1).max(3600).describe(
    "Killed (with its process group) after this long",
  ),
  env: z.record(z.string().regex(ENV_NAME_PATTERN), z.string().max(1000)).optional()
    .describe("Extra environment; each name must be in the config's verificationEnvAllowlist"),
}).strict().describe("One check spot runs itself, in a pristine tree of the worker's diff").superRefine(
  (cmd, ctx) => {
    const first = cmd.argv[0];
    if (/\s/.test(first) || /[;&|`$<>]/.test(first)) {
      ctx.addIssue({
        code: "custom",
        path: ["argv", 0],
        message: "must be a program name, not a shell string: split the command into argv items",
      });
    }
  },
);

export const Capability = z.enum(["text", "code", "tool-use", "vision-input", "image-output"]);
export const Risk = z.enum(["low", "medium", "high"]);
export const Difficulty = z.enum(["low", "medium", "high"]);
export const Domain = z.enum(["frontend", "backend", "systems", "algorithm", "refactor", "docs"]);

const unique = <T extends z.ZodType<string>>(item: T) =>
  z.array(item).refine((a) => new Set(a).size === a.length, "items must be unique");

export const TaskContract = z.object({
  schemaVersion: z.literal(1).describe("Always 1"),
  runId: RunId.optional().describe("Generated when omitted"),
  repositoryRoot: z.string().refine((v) => v.startsWith("/"), "must be an absolute path").optional()
    .describe("Git toplevel of the current directory when omitted"),
  baseRevision: z.string().regex(/^[0-9a-f]{40,64}$/, "must be a full commit id").optional()
    .describe("HEAD when omitted"),
  goal: z.string().min(10).max(4000).describe("What the worker is to achieve, in a sentence or a paragraph"),
  allowedPaths: unique(RepoGlob).min(1).describe("Globs of the files the worker may change or create"),
  forbiddenPaths: unique(RepoGlob).default([]).describe("Globs no change may touch (on top of the config's)"),
  lockedPaths: unique(RepoGlob).default([])
    .describe("Globs whose content, mode and presence must stay exactly as at the base (tests, fixtures)"),
  constraints: unique(z.string().min(1).max(1000)).default([]).describe("Rules the worker is told to keep"),
  acceptanceCriteria: unique(z.string().min(1).max(1000)).min(1)
    .describe("What a reviewer checks the result against, one statement each"),
  verification: z.array(VerificationCommand).min(1).describe("The checks; all must pass"),
  requiredCapabilities: unique(Capability).min(1).default(["text", "code"])
    .describe("What the worker's model must be able to do; routing refuses a profile without them"),
  risk: Risk.describe("high is refused: such tasks are not delegated"),
  difficulty: Difficulty.optional().describe(
    "Routes to a cheaper or stronger profile; estimated when omitted",
  ),
  domain: Domain.optional().describe("Refines routing and the worker's instructions"),
}).strict().describe("The task contract a parent writes: what to do, where, and how spot checks it");

export type TaskContractInput = z.input<typeof TaskContract>;
export type TaskContract = z.infer<typeof TaskContract>;
/** A contract after prepare filled in what the parent left out. */
export type ResolvedContract = TaskContract & { runId: string; repositoryRoot: string; baseRevision: string };
