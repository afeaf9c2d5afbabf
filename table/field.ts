/**
 * The fields a verb's input is declared with: plain data, so the CLI's fast path reads them without loading
 * zod (docs/performance.md). Each field is one entry of the verb's input; from it come the CLI's flag or
 * positional (cli/table.ts), the MCP input schema with a description on every property (table/zod.ts, built
 * only when `spot mcp` starts) and the library's options type (`InputOf`, below).
 */
import type { ReviewResultInput, TaskContractInput } from "../schemas/gen/mod.ts";

/** Where a verb or a field shows: the command line, the MCP server, the library (`mod.ts`). */
export type Face = "cli" | "mcp" | "lib";
export const FACES: readonly Face[] = ["cli", "mcp", "lib"];

/** What completions offer for a value: names read from the state directory, or paths. */
export type Completion = "runs" | "agents" | "jobs" | "file" | "dir";

/** A JSON document a verb reads: a file on the CLI; an object (or a file) over MCP and in the library. */
export interface DocValues {
  task: TaskContractInput;
  review: ReviewResultInput;
  /** Checked by spot's own loader (schemas/job/job.schema.json); no published type. */
  job: Record<string, unknown>;
  "job-task": Record<string, unknown>;
}
export type DocKind = keyof DocValues;

interface Base {
  /** One phrase: the CLI's help, the MCP property's description, the library's doc. */
  help: string;
  required?: boolean;
  /** Shown only on these faces (default: every face of the verb). */
  faces?: readonly Face[];
  /** The CLI's spelling: `--id <runId>`, `--no-open`, or `<name>` for a positional (default `--kebab-key <v>`). */
  cli?: string;
  complete?: Completion;
}

export interface TextField extends Base {
  kind: "text";
  /** The only values allowed (an enum in the MCP schema and the library's type; the CLI hands on the text). */
  values?: readonly string[];
  /** On the CLI, `-` reads the value from stdin (refused over MCP, whose stdin is the protocol). */
  stdin?: boolean;
  default?: string;
}

export interface FlagField extends Base {
  kind: "flag";
  default?: boolean;
  /** A switch the CLI spells with a value (`--select-worker <bool>`): its reading of the text. */
  parse?: (value: string) => boolean;
  /** The default over MCP when it differs from the CLI's (`spot_run` returns at once unless told to wait). */
  mcpDefault?: boolean;
}

export interface NumberField extends Base {
  kind: "number";
  int?: boolean;
  min?: number;
  max?: number;
  /** Above `min`, not at it (seconds between sweeps). */
  exclusiveMin?: boolean;
  /** The CLI's reading of the text; throws a CLI_USAGE SpotError for a bad one. */
  parse: (value: string) => number;
}

export interface ListField extends Base {
  kind: "list";
}

export interface DocField extends Base {
  kind: "doc";
  doc: DocKind;
  stdin?: boolean;
}

export type Field = TextField | FlagField | NumberField | ListField | DocField;
export type Fields = Record<string, Field>;

type Opts<F extends Field> = Omit<F, "kind" | "help">;
type Empty = Record<never, never>;

export const text = <const O extends Opts<TextField> = Empty>(help: string, o?: O) =>
  ({ kind: "text", help, ...o }) as { kind: "text"; help: string } & O;
export const flag = <const O extends Opts<FlagField> = Empty>(help: string, o?: O) =>
  ({ kind: "flag", help, ...o }) as { kind: "flag"; help: string } & O;
export const number = <const O extends Opts<NumberField>>(help: string, o: O) =>
  ({ kind: "number", help, ...o }) as { kind: "number"; help: string } & O;
export const list = <const O extends Opts<ListField> = Empty>(help: string, o?: O) =>
  ({ kind: "list", help, ...o }) as { kind: "list"; help: string } & O;
export const doc = <const D extends DocKind, const O extends Omit<Opts<DocField>, "doc"> = Empty>(
  kind: D,
  help: string,
  o?: O,
) => ({ kind: "doc", doc: kind, help, ...o }) as { kind: "doc"; doc: D; help: string } & O;

/** The value a field takes in the library and over MCP (a document: the object, or a file's path). */
export type ValueOf<F> = F extends { kind: "text"; values: readonly (infer V)[] } ? V
  : F extends { kind: "text" } ? string
  : F extends { kind: "flag" } ? boolean
  : F extends { kind: "number" } ? number
  : F extends { kind: "list" } ? string[]
  : F extends { kind: "doc"; doc: infer D extends DocKind } ? string | DocValues[D]
  : never;

type OnFace<S, F extends Face> = {
  [K in keyof S as S[K] extends { faces: readonly (infer X)[] } ? F extends X ? K : never : K]: S[K];
};
type Simplify<T> = { [K in keyof T]: T[K] } & unknown;

/** A verb's input on a face (every face when none is named): required fields required, the rest optional. */
export type InputOf<S, F extends Face = Face> = Simplify<
  & { [K in keyof OnFace<S, F> as OnFace<S, F>[K] extends { required: true } ? K : never]: ValueOf<S[K]> }
  & { [K in keyof OnFace<S, F> as OnFace<S, F>[K] extends { required: true } ? never : K]?: ValueOf<S[K]> }
>;

/** Whether a field shows on a face of its verb. */
export function fieldOn(field: Field, face: Face): boolean {
  return field.faces === undefined || field.faces.includes(face);
}

/** `usageStart` as the CLI spells it by default: `usage-start`. */
export function kebab(key: string): string {
  return key.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);
}

/** What completions offer for the field: its own `complete`, else a file for a document. */
export function completionOf(field: Field): Completion | undefined {
  return field.complete ?? (field.kind === "doc" ? "file" : undefined);
}

/**
 * The field's CLI spelling: an option's flags (`--id <runId>`), or a positional's `<name>` / `<names...>`.
 * By default `--kebab-key <v>`, where `<v>` is `<file>` or `<dir>` for a path, `<n>` for a number, else the key.
 */
export function cliSpelling(key: string, field: Field): string {
  if (field.cli) return field.cli;
  if (field.kind === "flag") return `--${kebab(key)}`;
  if (field.kind === "list") return `<${key}...>`;
  const path = completionOf(field);
  const value = path === "file" || path === "dir" ? path : field.kind === "number" ? "n" : key;
  return `--${kebab(key)} <${value}>`;
}

/** The field's help where it is a file on the command line. */
export function cliHelp(field: Field): string {
  if (field.kind !== "doc") return field.help;
  return `${field.help}: a JSON file${field.stdin ? ", or - to read it from stdin" : ""}`;
}

/** The field's help where it is named (MCP, the library): a document is an object or a file's path. */
export function namedHelp(field: Field): string {
  return field.kind === "doc" ? `${field.help}: an object, or a JSON file's path` : field.help;
}

/** Whether the CLI takes the field as a positional argument. */
export function isPositional(key: string, field: Field): boolean {
  return cliSpelling(key, field).startsWith("<");
}
