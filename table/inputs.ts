/**
 * A document given as an object (over MCP, or to the library) becomes a file under the state directory and
 * goes through the same loader as the CLI's `--task FILE`: one validation, its problems located as
 * `file:line:col` in the file written here (pretty-printed, so each key has its own line).
 */
import { join } from "../base/path.ts";
import { type ErrorCode, SpotError } from "../errors.ts";
import type { SpotContext } from "../store/context.ts";
import type { DocKind } from "./field.ts";
import type { VerbIo } from "./verb.ts";

const CODES: Record<DocKind, ErrorCode> = {
  task: "CONTRACT_INVALID",
  review: "REVIEW_INVALID",
  job: "JOB_INVALID",
  "job-task": "JOB_INVALID",
};

/** Where documents given as objects are kept: beside the runs, never inside a worktree. */
export function inputsDir(ctx: SpotContext): string {
  return join(ctx.paths.stateRoot, "inputs");
}

/** The file to hand the verb: the caller's path as given, or the object written out. */
export function docFile(ctx: SpotContext, io: VerbIo, kind: DocKind, value: string | object): string;
export function docFile(
  ctx: SpotContext,
  io: VerbIo,
  kind: DocKind,
  value: string | object | undefined,
): string | undefined;
export function docFile(
  ctx: SpotContext,
  io: VerbIo,
  kind: DocKind,
  value: string | object | undefined,
): string | undefined {
  if (value === undefined || typeof value === "string") return noStdin(io, value, CODES[kind]);
  if (value === null || Array.isArray(value)) {
    throw new SpotError(CODES[kind], `Cannot read the ${kind} given: expected an object or a file's path`);
  }
  const dir = inputsDir(ctx);
  Deno.mkdirSync(dir, { recursive: true, mode: 0o700 });
  const stamp = ctx.now().replace(/[^0-9]/g, "").slice(0, 14);
  const file = join(dir, `${kind}-${stamp}-${crypto.randomUUID().slice(0, 8)}.json`);
  Deno.writeTextFileSync(file, JSON.stringify(value, null, 2) + "\n", { mode: 0o600 });
  return file;
}

/** `-` reads stdin on the CLI; over MCP stdin is the protocol, so it is refused before anything reads it. */
export function noStdin<T extends string | undefined>(
  io: VerbIo,
  value: T,
  code: ErrorCode = "CLI_USAGE",
): T {
  if (value === "-" && io.face !== "cli") {
    throw new SpotError(code, `Cannot read "-" from stdin here: give the text or the object itself`);
  }
  return value;
}
