/**
 * The JSON-lines protocol between spot and its step programs. Steps write one
 * message per line on stdout; spot writes the spec file they read.
 */

export interface WorkerStepSpec {
  argv: string[];
  cwd: string;
  /** Names of the step's own env vars to hand to the worker (the step gets exactly these). */
  envNames: string[];
  stdinFile?: string;
  timeoutMs: number;
  /** No stdout line and no change in the worktree for this long ends the worker as no_progress. */
  idleMs: number;
  /** The worker's raw stdout, appended line by line by the step itself. */
  rawStreamFile: string;
  /** Resolved `kill` program, allowed by --allow-run, for process-group kills. */
  killBinary?: string;
}

export interface VerifyCommandSpec {
  argv: string[];
  timeoutSeconds: number;
  /** Fixed values from the contract. */
  env: Record<string, string>;
  /** Names passed through from the step's own env. */
  passEnv: string[];
}

export interface VerifyStepSpec {
  cwd: string;
  /** Resolved `kill` program, allowed by --allow-run, for process-group kills. */
  killBinary?: string;
  commands: VerifyCommandSpec[];
  maxChars: number;
}

export type StepMessage =
  | { t: "line"; line: string }
  | { t: "started"; pid: number }
  | {
    t: "exit";
    exitCode: number | null;
    signal: string | null;
    timedOut: boolean;
    idle: boolean;
    cancelled: boolean;
    durationMs: number;
    spawnError?: string;
    stderrTail: string;
  }
  | {
    t: "command";
    index: number;
    argv: string[];
    exitCode: number | null;
    signal: string | null;
    timedOut: boolean;
    durationMs: number;
    stdout: string;
    stderr: string;
    stdoutTruncated: boolean;
    stderrTruncated: boolean;
    spawnError?: string;
  }
  | { t: "done" };
