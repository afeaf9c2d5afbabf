/**
 * The library's face of the verb table: a verb called as a function of one options object. It builds the
 * context the CLI builds (no audit line: a library caller is not a command) and calls the verb's own
 * function, so a caller gets exactly the CLI's gates, refusals and results.
 */
import { createContext } from "../config/context.ts";
import { SpotError } from "../errors.ts";
import {
  type AnyVerb,
  type BareVerb,
  type ContextVerb,
  type Fields,
  type InputOf,
  type VerbIo,
  type VerbNamed,
  verbOf,
} from "../table/mod.ts";

/** Where spot reads its settings; the defaults are the process's own, as for the CLI. */
export interface SpotOptions {
  /**
   * The environment spot reads (`PI_WORKER_CONFIG`, `PI_WORKER_STATE_DIR`, `PI_WORKER_CACHE_DIR`,
   * `PARENT_AGENT`, provider keys, ...). When given, only it is read.
   */
  env?: Record<string, string | undefined>;
  /** The working directory: the repository for `prepare`, the base of relative file names. */
  cwd?: string;
  /** Cancels a worker turn or a check in flight, as Ctrl-C does for the CLI. */
  signal?: AbortSignal;
  /** Receives the short progress line the CLI shows on a terminal, and the lines `agentWatch` prints. */
  progress?: (text: string) => void;
}

/** A verb's result where spot names no type for it: the JSON the CLI prints, without `ok` and `command`. */
export type JsonObject = Record<string, unknown>;

/** A verb's options in the library: its fields, and where spot reads its settings. */
export type Options<V> = V extends { input: infer S extends Fields } ? InputOf<S, "lib"> & SpotOptions
  : never;

/** What a verb returns: what the CLI prints as its JSON (without `ok` and `command`). */
export type Result<V> = V extends ContextVerb<Fields, infer R> ? R
  : V extends BareVerb<Fields, infer R> ? R
  : never;

/** The function the library gives for a verb. */
export type Fn<N extends string> = (options: Options<VerbNamed<N>>) => Promise<Result<VerbNamed<N>>>;

function split(options: Record<string, unknown>) {
  const { env, cwd, signal, progress, ...input } = options as SpotOptions & Record<string, unknown>;
  return { env, cwd, signal, progress, input };
}

/** The verb as a library function. */
export function libraryFunction<N extends string>(verb: VerbNamed<N>): Fn<N> {
  const v = verb as AnyVerb;
  return (async (options: Record<string, unknown> = {}) => {
    const { env, cwd, signal, progress, input } = split(options);
    const read = (name: string) => env ? env[name] : Deno.env.get(name);
    const io: VerbIo = {
      face: "lib",
      print: (line) => progress?.(line),
      note: () => {},
      log: () => {},
      env: read,
      warn: () => {},
    };
    if ("bare" in v) return await v.bare(input as never, io);
    if (!("run" in v)) {
      throw new SpotError("CLI_USAGE", `Cannot call "${v.name}" from the library: it is the CLI's`);
    }
    const ctx = await createContext({
      env: env ? read : undefined,
      cwd,
      signal,
      progress,
      loadConfig: v.loadConfig,
    });
    return await v.run(ctx, input as never, io);
  }) as unknown as Fn<N>;
}

type VerbName = Parameters<typeof verbOf>[0];

/**
 * The library function of the verb named `name`, returning `R`: the type spot names for its result on this
 * face (it must be one the verb can return: `run` without `detach` returns a RunResult).
 */
export function call<R extends Result<VerbNamed<N>>, N extends VerbName>(
  name: N,
): (options: Options<VerbNamed<N>>) => Promise<R> {
  return libraryFunction(verbOf(name)) as (options: Options<VerbNamed<N>>) => Promise<R>;
}

/** The same, for a verb whose result spot names no type for: its JSON object. */
export function callJson<N extends VerbName>(
  name: N,
): (options: Options<VerbNamed<N>>) => Promise<JsonObject> {
  return libraryFunction(verbOf(name)) as unknown as (options: Options<VerbNamed<N>>) => Promise<JsonObject>;
}
