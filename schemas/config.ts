/** The user's config: profiles, limits and policy. Unknown keys are refused. */
import { z } from "zod";
import { Capability, ENV_NAME_PATTERN, RepoGlob } from "./task_contract.ts";

export const CostTier = z.enum(["free", "cheap", "standard", "premium"]);

export const Profile = z.object({
  adapter: z.string().min(1).default("pi"),
  provider: z.string().min(1),
  model: z.string(),
  apiKeyEnv: z.string().regex(ENV_NAME_PATTERN).optional(),
  binary: z.string().optional().describe("Absolute path or command name of the worker CLI"),
  capabilities: z.array(Capability).default(["text", "code", "tool-use"]),
  costTier: CostTier.optional(),
  strengths: z.array(z.string()).default([]),
  modalities: z.array(z.enum(["text", "vision", "image-output"])).default(["text"]),
  fallbackProfiles: z.array(z.string()).default([]),
  providerType: z.enum(["openai-completions", "openai-responses", "anthropic-messages", "google-gemini"])
    .optional(),
  baseUrl: z.string().url().optional(),
  maxContextSize: z.number().int().positive().optional(),
  thinking: z.string().optional(),
}).strict();
export type Profile = z.infer<typeof Profile>;

export const Limits = z.object({
  workerTimeoutSeconds: z.number().int().min(1).max(86_400).default(1800),
  /** No output from a worker for this long ends it as no_progress. */
  workerIdleSeconds: z.number().int().min(1).max(86_400).default(300),
  maxChangedFiles: z.number().int().min(1).default(80),
  maxDeletedLineRatio: z.number().min(0).max(1).default(0.35),
  maxCapturedCharsPerStream: z.number().int().min(100).default(12_000),
  maxDiffBytes: z.number().int().min(1).default(2_000_000),
  maxFileBytes: z.number().int().min(1).default(1_000_000),
}).strict();

export const SelfReviewConfig = z.object({
  enabled: z.boolean().default(true),
  spotCheckCount: z.number().int().min(0).max(10).default(1),
  spotCheckRatio: z.number().min(0).max(1).default(0.34),
  minDiffBytes: z.number().int().min(0).max(100_000_000).default(500),
  minSurfaceBytes: z.number().int().min(0).max(100_000_000).default(4000),
}).strict();

export const Config = z.object({
  $schema: z.string().optional(),
  schemaVersion: z.literal(1).default(1),
  defaultProfile: z.string().default("volcengine"),
  maxConcurrentRuns: z.number().int().min(1).max(16).default(4),
  maxRevisionRounds: z.number().int().min(0).max(2).default(2),
  autoIntegrateCleanSource: z.boolean().default(true),
  limits: Limits.default(Limits.parse({})),
  selfReview: SelfReviewConfig.default(SelfReviewConfig.parse({})),
  verificationEnvAllowlist: z.array(z.string().regex(ENV_NAME_PATTERN))
    .default(["CI", "NODE_ENV", "PYTHONPATH", "RUST_BACKTRACE"]),
  alwaysForbiddenPaths: z.array(RepoGlob)
    .default([".git/**", ".env", ".env.*", "**/.env", "**/.env.*", "**/*credential*", "**/*secret*"]),
  profiles: z.record(z.string(), Profile).default({}),
}).strict();
export type Config = z.infer<typeof Config>;
