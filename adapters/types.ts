/**
 * The seam between spot and a worker CLI. An adapter is pure: it plans a
 * launch, turns stream lines into normalized events, and decides the outcome
 * from what it parsed (never from the exit code alone).
 */
import type { Phase, Usage, WorkerEvent } from "../schemas/events.ts";

/** Failure codes of the worker taxonomy (recorded as `state.failure.code`). */
export type WorkerFailureCode =
  | "auth"
  | "quota"
  | "quota_window"
  | "rate_limit"
  | "model_not_found"
  | "capability"
  | "timeout"
  | "no_progress"
  | "ask_hang"
  | "zero_output"
  | "tui_fallback"
  | "cli_crash"
  | "config"
  | "budget"
  | "cancelled";

/** blocking: do not retry or fall back; transient: retry once; permanent: fail. */
export type FailureClass = "blocking" | "transient" | "permanent";

export interface WorkerFailure {
  code: WorkerFailureCode;
  class: FailureClass;
  message: string;
  /** quota_window: when the window ends (ISO time, or the CLI's own words when it gave no date). */
  resetAt?: string;
}

/** The profile fields an adapter reads. */
export interface AdapterProfile {
  name: string;
  adapter: string;
  provider: string;
  model: string;
  apiKeyEnv?: string;
  baseUrl?: string;
  /** Wire protocol of `baseUrl`; each adapter has its own default. */
  providerType?: ProviderType;
  thinking?: string;
  /** The CLI's own retry budget for provider errors; unset keeps the adapter's default. */
  maxRetries?: number;
  /** The CLI's own per-request timeout; unset keeps the CLI's default. */
  requestTimeoutSeconds?: number;
  /** Passed the way adapters/capabilities/settings.ts says; a profile whose CLI has no way is refused at config load. */
  reasoningEffort?: string;
  maxContextSize?: number;
  /** The profile's `limits.maxTurns`. */
  maxTurns?: number;
}

export type ProviderType = "openai-completions" | "openai-responses" | "anthropic-messages" | "google-gemini";

export interface LaunchSpec {
  runId: string;
  phase: Phase;
  /** Absolute path of the worker's worktree (its cwd). */
  worktree: string;
  /** Absolute path of the run directory. */
  runDir: string;
  /** A fresh, private HOME for this launch. */
  homeDir: string;
  /** Resolved absolute path of the worker binary. */
  binary: string;
  profile: AdapterProfile;
  /** Absolute path of the file that holds the prompt. */
  promptFile: string;
  /** The prompt itself, for CLIs that read it only from argv. */
  prompt?: string;
  /** PATH, LANG and the like; the adapter adds its own names. */
  baseEnv: Record<string, string>;
  /** The value of the profile's key variable, when there is one. */
  apiKey?: string;
  /** The launch runs inside spot's OS sandbox: a CLI's own sandbox would nest and fail, so it stands down. */
  osSandbox?: boolean;
  /**
   * The turn may use the CLI's own web tools (a job's research turn only): the adapter stops denying them.
   * Where they may reach is not the adapter's business: under the OS sandbox spot's egress proxy decides.
   */
  web?: boolean;
  /** A session an earlier turn of this run left, to continue (`spot agent send`); see `adapters/capabilities/sessions.ts`. */
  resumeSession?: string;
}

/** A Deno program of spot's that a launch runs inside the sandbox: its entry and every module it imports. */
export interface DenoProgram {
  entry: string;
  modules: string[];
}

export interface LaunchPlan {
  argv: string[];
  /** The complete environment; the child is spawned with clearEnv. */
  env: Record<string, string>;
  /** Config files to write before launch (absolute paths under homeDir or runDir). */
  files: { path: string; content: string }[];
  /** Feed this file on stdin then close it; stdin is null otherwise. */
  stdinFile?: string;
  /** spot's own Deno programs the launch runs (the replay worker), compiled before an OS-sandboxed launch. */
  denoPrograms?: DenoProgram[];
}

/** What the finished process looked like, for `finish`. */
export interface WorkerExit {
  exitCode: number | null;
  signal: string | null;
  timedOut: boolean;
  cancelled: boolean;
  stderrTail: string;
}

export interface WorkerOutcome {
  ok: boolean;
  failure?: WorkerFailure;
  text?: string;
  usage: Usage;
  costUsd: number;
}

/** Accumulator an adapter keeps across lines of one launch. */
export interface ParseState {
  usage: Usage;
  costUsd: number;
  lastText?: string;
  lastStopReason?: string;
  lastError?: string;
  badLines: number;
  events: number;
  /** The stream's own end-of-run record (pi's agent_end, a CLI's result line) was seen. */
  finished?: boolean;
  /** A failure the stream itself reported, already classified (an error event, a failed result). */
  failure?: WorkerFailure;
  /** The CLI asked a question or for a permission and waits for an answer nobody will give. */
  pendingAsk?: string;
  /** The CLI drew a terminal UI instead of its headless stream. */
  tui?: boolean;
  /** Per-adapter bookkeeping (the last step's finish reason and the like). */
  scratch: Record<string, unknown>;
}

/** How `spot detect` learns about an installed CLI; all optional, all pure data. */
export interface DetectInfo {
  /** Arguments that print the version (e.g. ["--version"]). */
  versionArgs?: string[];
  /** Picks the version out of that output. */
  parseVersion?(stdout: string): string | null;
  /** Arguments that list models, for CLIs that can. */
  modelListArgs?: string[];
  parseModelList?(stdout: string): string[];
  /** Other names the CLI installs under, tried after `defaultBinary` (Qoder's CN build is `qoderclicn`). */
  alsoNamed?: string[];
  /** Places to look besides PATH, relative to HOME (e.g. ".opencode/bin"). */
  candidateDirs?: string[];
  /** Oldest version spot is known to work with. */
  minimumVersion?: string;
}

export interface WorkerAdapter {
  readonly name: string;
  /** Binary name looked up on PATH unless the profile or env names one. */
  readonly defaultBinary: string;
  /**
   * Who keeps the self-review turn from writing when there is no OS sandbox: `cli` when the CLI itself
   * refuses edits in the mode the plan starts it in (its tools are not there, or its permission system or
   * own sandbox denies them); `nobody` when the flags only pre-approve tools and edits stay possible. Under
   * bwrap the worktree is mounted read-only for that turn whatever this says.
   */
  readonly selfReviewReadOnly: "cli" | "nobody";
  readonly detect?: DetectInfo;
  /** The CLI's own web tools, given when `LaunchSpec.web` is true; absent: the CLI has none spot can give. */
  readonly webTools?: readonly string[];
  plan(spec: LaunchSpec): LaunchPlan;
  parseLine(line: string, state: ParseState): WorkerEvent[];
  finish(exit: WorkerExit, state: ParseState): WorkerOutcome;
}

export function newParseState(): ParseState {
  return {
    usage: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
    costUsd: 0,
    badLines: 0,
    events: 0,
    scratch: {},
  };
}
