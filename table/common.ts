/** Fields several verbs share, each described once. */
import { type ErrorCode, SpotError } from "../errors.ts";
import type { SandboxChoice } from "../schemas/sandbox_record.ts";
import { flag, text } from "./field.ts";

export const SANDBOX_MODES = ["auto", "bwrap", "none"] as const satisfies readonly SandboxChoice[];

export const runId = text("the run id prepare returned", {
  required: true,
  cli: "--id <runId>",
  complete: "runs",
});

export const sandbox = text(
  "OS sandbox: auto (bwrap when usable, else refuse), bwrap, or none (an opt-out the run records)",
  { values: SANDBOX_MODES, cli: "--sandbox <mode>" },
);

export const profile = text("worker profile (overrides routing)", { cli: "--profile <name>" });
export const model = text("model override (for the replay worker: the episode file)", {
  cli: "--model <model>",
  complete: "file",
});

export const agentName = text("the agent's name: letters, digits, _ and -, starting with a letter or digit", {
  required: true,
  cli: "<name>",
  complete: "agents",
});

export const jobId = text("the job id that job init printed", {
  required: true,
  cli: "<job>",
  complete: "jobs",
});

/** `--json`, the CLI's switch from a terminal's view back to the JSON a program reads. */
export const json = flag("print the JSON, even on a terminal", { faces: ["cli"] });

/** `--flag true|false`, as the seed spells its picker switches. */
export function parseBool(value: string): boolean {
  if (value === "true" || value === "false") return value === "true";
  throw new SpotError("CLI_USAGE", `Cannot read "${value}" as a boolean: expected true or false`);
}

/** A whole number of at least 0, for paging options. */
export function positiveInt(value: string): number {
  const n = Number(value);
  if (Number.isInteger(n) && n >= 0) return n;
  throw new SpotError(
    "CLI_USAGE",
    `Cannot read "${value}" as a count: expected a whole number of at least 0`,
  );
}

/** Error codes written as one string, each checked against errors.ts when the table is type-checked. */
type Codes<S extends string> = S extends `${infer A} ${infer R}`
  ? A extends ErrorCode ? `${A} ${Codes<R>}` : never
  : S extends ErrorCode ? S
  : never;
export const codes = <S extends string>(list: S & Codes<S>): ErrorCode[] => list.split(" ") as ErrorCode[];

/** What every verb on one run can meet: no such run, another process on it, a state that forbids it. */
export const RUN_ERRORS = codes("RUN_NOT_FOUND RUN_LOCKED STATE_INVALID RUN_READ_ONLY");
/** What a worker turn can end in. */
export const TURN_ERRORS = codes(
  "WORKER_FAILED WORKER_BLOCKED WORKER_INTERRUPTED ESCAPED_WORKTREE SANDBOX_UNAVAILABLE PROVIDER_UNREACHABLE",
);
/** What routing a task to a worker can refuse. */
export const ROUTE_ERRORS = codes("PROFILE_NOT_FOUND NO_ROUTABLE_PROFILE CAPABILITY_MISMATCH");
