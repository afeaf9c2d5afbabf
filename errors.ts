/**
 * The domain error of spot. Every failure a user can act on carries a stable
 * `code` (documented in the README) and the process exit code the CLI uses.
 * Only our own bugs escape as other error types (exit 1, code INTERNAL).
 */

/** Exit codes, as documented in the README. */
export const EXIT = {
  ok: 0,
  internal: 1,
  usage: 2,
  failed: 3,
  blocked: 4,
  busy: 5,
  refused: 6,
} as const;

/** Every stable error code spot emits, with its exit code. */
export const ERROR_CODES = {
  CLI_USAGE: EXIT.usage,
  CONTRACT_INVALID: EXIT.usage,
  CONFIG_INVALID: EXIT.usage,
  REVIEW_INVALID: EXIT.usage,
  EPISODE_INVALID: EXIT.usage,
  RUN_NOT_FOUND: EXIT.usage,
  RUN_EXISTS: EXIT.usage,
  AGENT_NAME_INVALID: EXIT.usage,
  AGENT_NOT_FOUND: EXIT.usage,
  PROFILE_NOT_FOUND: EXIT.usage,
  NO_ROUTABLE_PROFILE: EXIT.usage,
  PROVIDER_UNREACHABLE: EXIT.usage,
  CAPABILITY_MISMATCH: EXIT.usage,
  BASE_REVISION_MISMATCH: EXIT.usage,
  NOT_A_REPOSITORY: EXIT.usage,
  REPO_NOT_FOUND: EXIT.usage,
  CHECK_NOT_FOUND: EXIT.usage,
  JOB_INVALID: EXIT.usage,
  JOB_CYCLE: EXIT.usage,
  OWNERSHIP_OVERLAP: EXIT.usage,
  JOB_NOT_FOUND: EXIT.usage,
  QUEUE_NOT_CONFIGURED: EXIT.usage,
  RUN_LOCKED: EXIT.busy,
  CONCURRENCY_LIMIT: EXIT.busy,
  AGENT_RUNNING: EXIT.busy,
  JOB_RUNNING: EXIT.busy,
  LANDING_BUSY: EXIT.busy,
  STATE_INVALID: EXIT.refused,
  JOB_NOT_RUNNING: EXIT.refused,
  REVIEW_GATE: EXIT.refused,
  DIFF_CHANGED: EXIT.refused,
  CLEANUP_REFUSED: EXIT.refused,
  ROLLBACK_REFUSED: EXIT.refused,
  REPAIR_REFUSED: EXIT.refused,
  RUN_READ_ONLY: EXIT.refused,
  HIGH_RISK_BLOCKED: EXIT.blocked,
  SECURITY_BLOCKED: EXIT.blocked,
  SYMLINK_ESCAPE: EXIT.blocked,
  LOCKED_PATH_CHANGED: EXIT.blocked,
  VERIFICATION_SCRIPT_CHANGED: EXIT.blocked,
  ESCAPED_WORKTREE: EXIT.blocked,
  SOURCE_CHANGED: EXIT.blocked,
  VERIFICATION_OUTPUT_TRUNCATED: EXIT.blocked,
  INTEGRATION_BLOCKED: EXIT.blocked,
  POST_INTEGRATE_VERIFY_FAILED: EXIT.blocked,
  WORKER_BLOCKED: EXIT.blocked,
  SANDBOX_UNAVAILABLE: EXIT.blocked,
  SETUP_CHANGED_TREE: EXIT.blocked,
  OWNERSHIP_VIOLATED: EXIT.blocked,
  REVIEW_STALE: EXIT.blocked,
  BUDGET_EXCEEDED: EXIT.blocked,
  TASK_BASE_CONFLICT: EXIT.blocked,
  FLEET_RESULT_MISMATCH: EXIT.blocked,
  WORKER_FAILED: EXIT.failed,
  NO_CHANGES: EXIT.failed,
  REVISION_LIMIT: EXIT.failed,
  REVISION_NO_CHANGE: EXIT.failed,
  JOB_FAILED: EXIT.failed,
  JOB_TIMEOUT: EXIT.failed,
  BARRIER_FAILED: EXIT.failed,
  RESULT_INVALID: EXIT.failed,
  SETUP_FAILED: EXIT.failed,
  WORKER_INTERRUPTED: EXIT.failed,
  VERIFICATION_INTERRUPTED: EXIT.failed,
  QUEUE_UNAVAILABLE: EXIT.failed,
  FLEET_UNCLAIMED: EXIT.failed,
  FLEET_TASK_FAILED: EXIT.failed,
  GIT_FAILED: EXIT.internal,
  STEP_FAILED: EXIT.internal,
  DOCTOR_FAILED: EXIT.failed,
  SERVE_FAILED: EXIT.failed,
  MONITOR_FAILED: EXIT.failed,
  PARENT_METER_FAILED: EXIT.usage,
  USAGE_SNAPSHOT_INVALID: EXIT.usage,
  INTERNAL: EXIT.internal,
  CANCELLED: 130,
} as const;

/** A stable error code; the README's table lists each with its exit code. */
export type ErrorCode = keyof typeof ERROR_CODES;

/** One problem in an input file, located for a human. */
export interface Issue {
  path: string;
  message: string;
  line?: number;
  col?: number;
}

/** What a SpotError carries besides its code and message. */
export interface SpotErrorOptions {
  /** Data a program can act on (the file, the issues, a hint); printed as the CLI error's `details`. */
  details?: Record<string, unknown>;
  /** The error behind this one. */
  cause?: unknown;
}

/** A failure with a stable code; `exitCode` follows from the code. */
export class SpotError extends Error {
  /** Always "SpotError". */
  override name = "SpotError";
  /** The stable code (`CONTRACT_INVALID`, `LOCKED_PATH_CHANGED`, ...). */
  readonly code: ErrorCode;
  /** Data a program can act on; see {@link SpotErrorOptions}. */
  readonly details: Record<string, unknown>;

  /** A failure with a stable code and a message that says what went wrong and, where it can, the fix. */
  constructor(code: ErrorCode, message: string, options: SpotErrorOptions = {}) {
    super(message, { cause: options.cause });
    this.code = code;
    this.details = options.details ?? {};
  }

  /** The CLI's exit code for this error's code. */
  get exitCode(): number {
    return ERROR_CODES[this.code];
  }

  /** What the CLI prints as `error`. */
  toJSON(): { code: ErrorCode; message: string; details: Record<string, unknown> } {
    return { code: this.code, message: this.message, details: this.details };
  }
}

/** Narrowing helper for catch blocks. */
export function isSpotError(error: unknown, code?: ErrorCode): error is SpotError {
  return error instanceof SpotError && (code === undefined || error.code === code);
}
