/**
 * One verb, declared once: its name, summary, input fields, the error codes it can return, what it does to
 * the world (annotations), examples, and the function that runs it. The CLI (cli/table.ts), the MCP server
 * (mcp/tools.ts) and the library (api/verbs.ts) are built from these declarations; table/faces_test.ts holds
 * each face to the table both ways.
 */
import type { ErrorCode } from "../errors.ts";
import type { SpotContext } from "../store/context.ts";
import type { FileWarning } from "../config/loaded.ts";
import { type Face, FACES, type Fields, type InputOf } from "./field.ts";

/** What a verb does to the world, as MCP's tool annotations say it (and the CLI's interrupt handling). */
export interface Annotations {
  /** Changes nothing (files, runs, processes). */
  readOnly?: boolean;
  /** May remove or overwrite what cannot be had back (a worktree, a checkout's files). */
  destructive?: boolean;
  /** Calling it again with the same input changes nothing more. */
  idempotent?: boolean;
  /** Runs for long: progress notifications over MCP, a progress line on a terminal, stopped by a signal. */
  long?: boolean;
  /** Runs until it is signalled and answers the signals itself (SIGTERM drains): a daemon, on the CLI only. */
  daemon?: boolean;
}

/** What the face running a verb gives it besides the context. */
export interface VerbIo {
  face: Face;
  /** A line of output as it comes: stdout on the CLI, a progress notification over MCP. */
  print: (line: string) => void;
  /** Text for a person at a terminal (the CLI's stderr, when it is one); dropped elsewhere. */
  note: (text: string) => void;
  /** A server's log line, on stderr while it runs. */
  log: (line: string) => void;
  env: (name: string) => string | undefined;
  warn: (text: string, warning?: FileWarning) => void;
}

interface Declaration<S extends Fields, R, N extends string> {
  /** The words that name it on the CLI: `prepare`, `agent start`. */
  name: N;
  summary: string;
  input: S;
  /** The result's type by name, and the module exporting it (the library's generated functions return it). */
  output?: Record<string, string>;
  /** The error codes it can return beyond those any verb can (COMMON_ERRORS). */
  errors: readonly ErrorCode[];
  annotations?: Annotations;
  /** Example CLI calls; the first is shown under `--help`. */
  examples: readonly string[];
  /** The faces it shows on (default: all). */
  faces?: readonly Face[];
  /** Left out of help and completions (a verb spot runs itself). */
  hidden?: boolean;
  /** Another CLI name (`codex-meter`). */
  alias?: string;
  /** More for a caller that reads the tool's description (MCP), after the summary. */
  about?: string;
  /** The call's working directory matters (relative paths, the repository): MCP takes `cwd` for it. */
  cwd?: boolean;
  /** Reads only run files: no config is loaded (it works with a broken one). */
  loadConfig?: false;
  /** Only looks: creates none of spot's places where spot never ran (SpotContext.readOnly); or, given the input, when. */
  looks?: true | ((input: InputOf<S>) => boolean);
  /** The CLI shows a human view on a terminal (cli/views.ts), and takes `--json`. */
  human?: boolean;
  /** Text instead of the JSON, where a parent reads text: the CLI prints it, MCP gives it as content. */
  text?: (result: R, input: InputOf<S>) => string | undefined;
}

/** A verb over a context (the config loaded, the state directory, an audit line). */
export interface ContextVerb<S extends Fields = Fields, R extends object = object, N extends string = string>
  extends Declaration<S, R, N> {
  run: (ctx: SpotContext, input: InputOf<S>, io: VerbIo) => Promise<R>;
}

/** A verb that reads the config file itself, so it works when that is broken (`config path`). */
export interface BareVerb<S extends Fields = Fields, R extends object = object, N extends string = string>
  extends Declaration<S, R, N> {
  bare: (input: InputOf<S>, io: VerbIo) => Promise<R>;
}

/** A verb the CLI itself implements (cli/host.ts): `mcp`, `completions`. */
export interface HostVerb<S extends Fields = Fields, N extends string = string>
  extends Declaration<S, object, N> {
  host: true;
}

// deno-lint-ignore no-explicit-any
export type AnyVerb = ContextVerb<any, any> | BareVerb<any, any> | HostVerb<any>;

export const verb = <const N extends string, const S extends Fields, R extends object>(
  v: ContextVerb<S, R, N>,
): ContextVerb<S, R, N> => v;
export const bareVerb = <const N extends string, const S extends Fields, R extends object>(
  v: BareVerb<S, R, N>,
): BareVerb<S, R, N> => v;
export const hostVerb = <const N extends string, const S extends Fields>(
  v: Omit<HostVerb<S, N>, "host">,
): HostVerb<S, N> => ({ ...v, host: true });

/** Errors any verb can return: a bad input, a bad config, a bug, an interrupt. */
export const COMMON_ERRORS: readonly ErrorCode[] = ["CLI_USAGE", "CONFIG_INVALID", "INTERNAL", "CANCELLED"];

export function verbOn(v: AnyVerb, face: Face): boolean {
  return (v.faces ?? FACES).includes(face);
}

/** `spot_agent_start` for `agent start`, `spot_self_review` for `self-review`. */
export function toolName(v: AnyVerb): string {
  return `spot_${v.name.replace(/[ -]/g, "_")}`;
}

/** `agentStart` for `agent start`, `selfReview` for `self-review`. */
export function libName(v: AnyVerb): string {
  return v.name.replace(/[ -]([a-z])/g, (_, c: string) => c.toUpperCase());
}

/** Whether this call of a context verb only looks (its `looks`, given the input). */
export function looksFor(v: AnyVerb, input: Record<string, unknown>): boolean {
  if (!("looks" in v) || v.looks === undefined) return false;
  return v.looks === true ? true : (v.looks as (i: Record<string, unknown>) => boolean)(input);
}
