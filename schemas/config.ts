/** The user's config: profiles, limits and policy. Unknown keys are refused. */
import { z } from "zod";
import { Capability, Domain, ENV_NAME_PATTERN, RepoGlob } from "./task_contract.ts";

export const CostTier = z.enum(["free", "cheap", "standard", "premium"]);

export const Modality = z.enum(["text", "vision", "image-output"]);

/** `host:port`, as the egress proxy matches it. */
export const HostPort = z.string().regex(/^[A-Za-z0-9.-]+:\d{1,5}$/, "host:port");

/** Per-profile overrides of the global limits (a slow provider may need a longer timeout). */
export const ProfileLimits = z.object({
  workerTimeoutSeconds: z.number().int().min(1).max(86_400).optional(),
  workerIdleSeconds: z.number().int().min(1).max(86_400).optional(),
  maxTurns: z.number().int().min(1).max(1000).optional()
    .describe("The CLI's own turn cap, for CLIs that take one (refused at load for the others)"),
}).strict();

/** What a worker's tokens cost, in USD per million, for CLIs that report tokens but no cost. */
export const ModelPricing = z.object({
  inputPerMillion: z.number().nonnegative(),
  outputPerMillion: z.number().nonnegative(),
  cacheReadPerMillion: z.number().nonnegative().optional().describe("Defaults to inputPerMillion"),
  cacheWritePerMillion: z.number().nonnegative().optional().describe("Defaults to inputPerMillion"),
}).strict();
export type ModelPricing = z.infer<typeof ModelPricing>;

export const Profile = z.object({
  adapter: z.string().min(1).default("pi"),
  provider: z.string().min(1),
  model: z.string(),
  apiKeyEnv: z.string().regex(ENV_NAME_PATTERN).optional(),
  binary: z.string().optional().describe("Absolute path or command name of the worker CLI"),
  readRoots: z.array(z.string().regex(/^(\/|~\/)/, "an absolute path or one starting with ~/")).optional()
    .describe(
      "Paths the worker may read inside the OS sandbox beyond its own install (e.g. a runtime under HOME); " +
        "never one holding a credential file",
    ),
  capabilities: z.array(Capability).default(["text", "code", "tool-use"]),
  costTier: CostTier.optional().describe("Leave it off to keep the profile out of difficulty routing"),
  strengths: z.array(Domain).default([]),
  modalities: z.array(Modality).default(["text"]),
  fallbackProfiles: z.array(z.string().min(1)).default([])
    .describe("Tried in order when this profile fails transiently"),
  providerType: z.enum(["openai-completions", "openai-responses", "anthropic-messages", "google-gemini"])
    .optional(),
  baseUrl: z.string().url().optional(),
  maxContextSize: z.number().int().positive().optional()
    .describe(
      "The context window the CLI works with, for CLIs that take one (refused at load for the others)",
    ),
  thinking: z.string().optional(),
  pricing: ModelPricing.optional(),
  reasoningEffort: z.enum(["minimal", "low", "medium", "high", "xhigh", "max"]).optional()
    .describe("Passed to CLIs that take it, in the values each accepts (refused at load otherwise)"),
  limits: ProfileLimits.optional(),
  maxRetries: z.number().int().min(0).max(10).optional()
    .describe(
      "The worker CLI's own retry budget for provider errors; spot retries a transient failure once more",
    ),
  requestTimeoutSeconds: z.number().int().min(1).max(3600).optional()
    .describe("The worker CLI's own per-request timeout, for CLIs that have one"),
  egress: z.enum(["auto", "forwarder", "allowlist"]).optional()
    .describe(
      "How the worker reaches its provider under the OS sandbox: auto picks the forwarder when an upstream URL " +
        "is known and the CLI takes one, else the allowlist proxy",
    ),
  egressHosts: z.array(HostPort).min(1).optional()
    .describe("host:port pairs the allowlist proxy lets this worker reach, instead of its CLI's defaults"),
}).strict();
export type Profile = z.infer<typeof Profile>;

const PerMillion = z.object({
  nonCachedInput: z.number().nonnegative(),
  cachedInput: z.number().nonnegative(),
  output: z.number().nonnegative(),
  cacheWrite: z.number().nonnegative().optional().describe("Defaults to nonCachedInput"),
}).strict();

/** The parent's prices, to turn its token counts into credits or dollars; dated and sourced. */
export const ParentRateCard = z.object({
  model: z.string().min(1),
  effectiveDate: z.string().regex(/^\d{4}-\d{2}-\d{2}$/, "must be a date like 2026-07-01"),
  source: z.string().min(1).describe("Where the prices come from (a URL or a document)"),
  agent: z.enum(["codex", "claude-code"]).optional().describe("Only price this parent's usage"),
  creditsPerMillion: PerMillion.optional(),
  usdPerMillion: PerMillion.optional(),
}).strict();
export type ParentRateCard = z.infer<typeof ParentRateCard>;

/** The parent's plan, to express credits as a share of what the user pays. */
export const ParentSubscription = z.object({
  plan: z.string().min(1),
  monthlyUsd: z.number().nonnegative(),
  weeklyAllowanceCredits: z.number().positive(),
  weeklyAllowanceSource: z.string().min(1).optional(),
}).strict();
export type ParentSubscription = z.infer<typeof ParentSubscription>;

export const Limits = z.object({
  workerTimeoutSeconds: z.number().int().min(1).max(86_400).default(1800),
  /** No stdout line, no token change and no worktree change for this long ends a worker as no_progress. */
  workerIdleSeconds: z.number().int().min(1).max(86_400).default(120),
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

/** How `spot agent poll` judges a named background agent; the defaults are the pi-dispatch seed's. */
export const AgentsConfig = z.object({
  wallClockSeconds: z.number().int().min(1).max(86_400).default(900)
    .describe("An agent still running this long after its start is stopped and reported TIMEOUT"),
  stallSeconds: z.number().int().min(1).max(86_400).default(300)
    .describe("No new stream output for this long (doubled while a tool runs) stops it as STALL"),
  noMarkerGraceSeconds: z.number().int().min(0).max(3600).default(30)
    .describe("A driver gone without its exit marker is reported no-rc only after this long"),
  settleSeconds: z.number().int().min(0).max(3600).default(10)
    .describe(
      "After the worker's final message, how long spot's driver may take to record it before poll stops it",
    ),
  stopGraceSeconds: z.number().int().min(0).max(60).default(2)
    .describe("Between SIGTERM and SIGKILL when an agent is stopped"),
  watchIntervalSeconds: z.number().int().min(1).max(3600).default(15)
    .describe("How often `spot agent watch` polls when --interval is not given"),
}).strict();

/** Hosts a dependency setup may reach through the egress proxy (`host:port`), by default the public registries. */
export const DEFAULT_REGISTRIES = [
  "registry.npmjs.org:443",
  "registry.yarnpkg.com:443",
  "pypi.org:443",
  "files.pythonhosted.org:443",
];

export const DependenciesConfig = z.object({
  reuse: z.boolean().default(true)
    .describe(
      "Show the source checkout's installed dependency dirs read-only when its lockfile is the base's",
    ),
  setup: z.union([z.literal("auto"), z.literal(false), z.string().min(1)]).default("auto")
    .describe("auto: the install command the base's lockfile implies; a command; or false for none"),
  registries: z.array(HostPort).default(DEFAULT_REGISTRIES)
    .describe("host:port the setup may reach through the egress proxy; nothing else"),
  setupTimeoutSeconds: z.number().int().min(10).max(7200).default(900),
}).strict();

/** The harness: CI, test-runner, browser-test and Python test configs (the seed's default lock set). */
export const DEFAULT_LOCKED_PATHS = [
  ".github/workflows/**",
  ".gitlab-ci.yml",
  ".circleci/**",
  "azure-pipelines.yml",
  "Jenkinsfile",
  "**/jest.config.*",
  "**/vitest.config.*",
  "**/vitest.workspace.*",
  "**/.mocharc*",
  "**/karma.conf.*",
  "**/playwright.config.*",
  "**/cypress.config.*",
  "cypress/**",
  "**/pytest.ini",
  "**/conftest.py",
  "**/tox.ini",
  "**/noxfile.py",
];

/** package.json keys that decide how tests run. */
export const DEFAULT_FROZEN_PACKAGE_KEYS = [
  "scripts",
  "jest",
  "vitest",
  "mocha",
  "ava",
  "nyc",
  "c8",
  "workspaces",
  "packageManager",
];

/**
 * Where work waits for a machine to run it (docs/fleet.md): `local` (the default) runs everything on this machine
 * with no server; `nats` puts jobs' tasks and `spot run --on fleet` on a NATS JetStream server that executors
 * (`spot executor`) on other machines claim work from.
 */
export const QueueConfig = z.object({
  backend: z.enum(["local", "nats"]).default("local")
    .describe("local: no server, everything runs here; nats: a NATS JetStream server executors share"),
  url: z.string().regex(/^(nats|tls|wss?):\/\/\S+$/, "a nats://, tls:// or ws(s):// URL").optional()
    .describe("The NATS server (nats://host:4222); required for the nats backend"),
  credentialsFile: z.string().regex(/^(\/|~\/)/, "an absolute path or one starting with ~/").optional()
    .describe("A NATS credentials file (.creds: a user JWT and its nkey seed)"),
  prefix: z.string().regex(/^[A-Z][A-Z0-9_]{0,30}$/, "capital letters, digits and _").default("SPOT")
    .describe(
      "Names spot's stream, key-value buckets and object store on the server, so fleets can share one",
    ),
  leaseSeconds: z.number().int().min(2).max(3600).default(30)
    .describe("An executor that stops heartbeating for this long loses its task, which another one redoes"),
  replicas: z.number().int().min(1).max(5).default(1)
    .describe("Copies JetStream keeps of spot's stream, buckets and object store: 3 on a three-node cluster"),
  claimTimeoutSeconds: z.number().int().min(1).max(86_400).default(600)
    .describe("A task no executor has claimed after this long is cancelled and fails FLEET_UNCLAIMED"),
}).strict();
export type QueueConfig = z.infer<typeof QueueConfig>;

export const CallerName = z.enum([
  "trae",
  "codex",
  "claude-code",
  "cursor",
  "pi-recursive",
  "workbuddy",
  "cli",
]);

/** Where a provider answers, and the wire API it speaks there. */
export const ProviderEndpoint = z.object({
  baseUrl: z.string().url(),
  providerType: z.enum(["openai-completions", "openai-responses", "anthropic-messages", "google-gemini"]),
}).strict();

export const Config = z.object({
  $schema: z.string().optional().describe("For editors: the JSON Schema this file follows"),
  schemaVersion: z.literal(1).default(1).describe("Always 1"),
  defaultProfile: z.string().default("volcengine").describe("The profile routing starts from"),
  maxConcurrentRuns: z.number().int().min(1).max(16).default(4)
    .describe("Runs with a live worker or check at once; prepare refuses past it"),
  maxRevisionRounds: z.number().int().min(0).max(2).default(2)
    .describe("How often a review may send a run back to its worker"),
  autoIntegrateCleanSource: z.boolean().default(true)
    .describe("integrate cherry-picks onto the source branch when its checkout is clean"),
  sandbox: z.enum(["auto", "bwrap", "none"]).default("auto")
    .describe("OS sandbox for workers and checks: auto (bwrap when usable, else refuse), bwrap, none"),
  // Failures exit with spot's codes (2-6), or pi-worker's (2 for usage, else 1); SPOT_EXIT_CODES overrides.
  // No `describe`: the generated types sit at the file-size limit (docs/config.md says it instead).
  exitCodes: z.enum(["spot", "pi-worker"]).optional().describe(
    "exit codes: spot's (2-6 by kind, the default) or the original pi-worker's (1 for every error, 2 for usage)",
  ),
  limits: Limits.default(Limits.parse({})).describe("Time, size and retry bounds of a run"),
  selfReview: SelfReviewConfig.default(SelfReviewConfig.parse({}))
    .describe("When the worker pre-digests its diff for the parent's review"),
  agents: AgentsConfig.default(AgentsConfig.parse({}))
    .describe("Thresholds of named background agents (spot agent poll, watch, stop)"),
  dependencies: DependenciesConfig.default(DependenciesConfig.parse({}))
    .describe("How the worker and the checks get the project's installed dependencies"),
  verificationEnvAllowlist: z.array(z.string().regex(ENV_NAME_PATTERN))
    .default(["CI", "NODE_ENV", "PYTHONPATH", "RUST_BACKTRACE"])
    .describe("Environment names a contract's checks may set"),
  alwaysForbiddenPaths: z.array(RepoGlob)
    .default([".git/**", ".env", ".env.*", "**/.env", "**/.env.*", "**/*credential*", "**/*secret*"])
    .describe("Globs no worker may touch, whatever the contract allows"),
  alwaysLockedPaths: z.array(RepoGlob).default(DEFAULT_LOCKED_PATHS)
    .describe("Files that decide how the work is graded; no worker may change them"),
  frozenPackageJsonKeys: z.array(z.string().min(1)).default(DEFAULT_FROZEN_PACKAGE_KEYS)
    .describe("package.json keys a worker may not change (dependencies stay editable)"),
  callerProfiles: z.partialRecord(CallerName, z.string().min(1)).default({})
    .describe("The profile each parent agent starts from, before difficulty routing"),
  parentRateCard: ParentRateCard.optional().describe(
    "The parent model's prices, for the tokens-saved report",
  ),
  codexRateCard: ParentRateCard.optional().describe("Legacy name of parentRateCard"),
  parentSubscription: ParentSubscription.optional()
    .describe("The parent's plan, to express saved credits as a share of it"),
  codexSubscription: ParentSubscription.optional().describe("Legacy name of parentSubscription"),
  providerEndpoints: z.record(z.string().min(1), ProviderEndpoint).default({})
    .describe(
      "Upstream URLs of providers by name, for keyed profiles without a baseUrl; merged over spot's table of " +
        "well-known providers (docs/providers.md)",
    ),
  queue: QueueConfig.default(QueueConfig.parse({}))
    .describe("Where tasks wait for a machine: local (no server) or a NATS JetStream fleet (docs/fleet.md)"),
  profiles: z.record(z.string(), Profile).default({}).describe(
    "Worker profiles by name: CLI, provider, model",
  ),
}).strict().describe("spot's config; every key has a default");
export type Config = z.infer<typeof Config>;
