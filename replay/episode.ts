/**
 * The replay episode format: JSON lines, one scripted step each. Pure and
 * dependency-free because the replay worker imports it under `--no-config`.
 */

/** `follow-up` lines play on a turn that resumes an earlier session (`spot agent send`). */
export const EPISODE_PHASES = ["run", "revise", "self-review", "follow-up"] as const;
export type EpisodePhase = typeof EPISODE_PHASES[number];

export type EpisodeStep =
  | { op: "write"; path: string; content: string }
  | { op: "delete"; path: string }
  | { op: "say"; text: string }
  | { op: "usage"; input: number; output: number; cacheRead: number; cacheWrite: number; costUsd: number }
  | { op: "sleep"; ms: number }
  | { op: "exec"; argv: string[] }
  | { op: "exit"; code: number }
  | { op: "fail"; message: string };

export type EpisodeLine = EpisodeStep & { phase: EpisodePhase; line: number };

/** A problem in an episode file, located by its 1-based line. */
export class EpisodeError extends Error {
  override name = "EpisodeError";
  readonly line: number;

  constructor(line: number, message: string) {
    super(message);
    this.line = line;
  }
}

type Fields = Record<string, unknown>;
type Check = (value: unknown) => boolean;

const isString: Check = (v) => typeof v === "string";
const isPath: Check = (v) => typeof v === "string" && v.length > 0;
const isCount: Check = (v) => Number.isSafeInteger(v) && (v as number) >= 0;
const isAmount: Check = (v) => typeof v === "number" && Number.isFinite(v) && v >= 0;
const isExitCode: Check = (v) => Number.isInteger(v) && (v as number) >= 0 && (v as number) <= 255;
const isArgv: Check = (v) => Array.isArray(v) && v.length > 0 && v.every((a) => typeof a === "string");

/** Each op's fields: checker, what to say when it fails, and the default when optional. */
export const OPS: Record<EpisodeStep["op"], Record<string, [Check, string, unknown?]>> = {
  write: { path: [isPath, "a non-empty string"], content: [isString, "a string"] },
  delete: { path: [isPath, "a non-empty string"] },
  say: { text: [isString, "a string"] },
  usage: {
    input: [isCount, "a non-negative integer", 0],
    output: [isCount, "a non-negative integer", 0],
    cacheRead: [isCount, "a non-negative integer", 0],
    cacheWrite: [isCount, "a non-negative integer", 0],
    costUsd: [isAmount, "a non-negative number", 0],
  },
  sleep: { ms: [isAmount, "a non-negative number"] },
  exec: { argv: [isArgv, "a non-empty array of strings"] },
  exit: { code: [isExitCode, "an integer from 0 to 255"] },
  fail: { message: [isString, "a string"] },
};

function parseStep(raw: Fields, line: number): EpisodeLine {
  const op = raw.op;
  if (typeof op !== "string" || !Object.hasOwn(OPS, op)) {
    throw new EpisodeError(line, `Unknown op ${JSON.stringify(op ?? null)}`);
  }
  const spec = OPS[op as EpisodeStep["op"]];
  const phase = raw.phase ?? "run";
  if (!EPISODE_PHASES.includes(phase as EpisodePhase)) {
    throw new EpisodeError(line, `Unknown phase ${JSON.stringify(phase)}`);
  }
  const step: Fields = { op, phase, line };
  for (const [key, [check, want, fallback]] of Object.entries(spec)) {
    const value = Object.hasOwn(raw, key) ? raw[key] : fallback;
    if (value === undefined) throw new EpisodeError(line, `Field "${key}" of op "${op}" is missing`);
    if (!check(value)) throw new EpisodeError(line, `Field "${key}" of op "${op}" must be ${want}`);
    step[key] = value;
  }
  // Strict keys: a misspelt field would otherwise be silently ignored.
  for (const key of Object.keys(raw)) {
    if (key !== "op" && key !== "phase" && !Object.hasOwn(spec, key)) {
      throw new EpisodeError(line, `Unknown field "${key}" for op "${op}"`);
    }
  }
  return step as EpisodeLine;
}

/** Parses and validates a whole episode; throws `EpisodeError` at the first bad line. */
export function parseEpisode(text: string): EpisodeLine[] {
  const steps: EpisodeLine[] = [];
  text.split("\n").forEach((source, index) => {
    const line = index + 1;
    if (source.trim() === "") return;
    let raw: unknown;
    try {
      raw = JSON.parse(source);
    } catch (error) {
      throw new EpisodeError(line, `Invalid JSON: ${(error as Error).message}`);
    }
    if (typeof raw !== "object" || raw === null || Array.isArray(raw)) {
      throw new EpisodeError(line, "Each line must be a JSON object");
    }
    steps.push(parseStep(raw as Fields, line));
  });
  return steps;
}

/** The steps played for one phase, in file order. */
export function stepsForPhase(steps: EpisodeLine[], phase: EpisodePhase): EpisodeLine[] {
  return steps.filter((step) => step.phase === phase);
}

export interface TemplateVars {
  diffSha256?: string;
  runId?: string;
  /** A job reviewer's prompt gives each builder's fingerprint (`fingerprint of api: <hex>`). */
  fingerprints?: Record<string, string>;
}

/** Pulls the values an episode may echo out of the prompt text. */
export function templateVars(prompt: string): TemplateVars {
  const vars: TemplateVars = {};
  const sha = /\bdiffSha256:[ \t]*([0-9a-fA-F]{64})\b/.exec(prompt);
  if (sha) vars.diffSha256 = sha[1];
  const run = /\brunId:[ \t]*([\w.:-]+)/.exec(prompt);
  if (run) vars.runId = run[1];
  for (const m of prompt.matchAll(/\bfingerprint of ([a-z][a-z0-9-]*):[ \t]*([0-9a-f]{64})\b/g)) {
    vars.fingerprints = { ...vars.fingerprints, [m[1]]: m[2] };
  }
  return vars;
}

/** Replaces `{{name}}` (and `{{fingerprint:<task>}}`) for each known var; unknown placeholders stay visible. */
export function applyTemplate(text: string, vars: TemplateVars): string {
  return text
    .replace(/\{\{(diffSha256|runId)\}\}/g, (whole, name: "diffSha256" | "runId") => vars[name] ?? whole)
    .replace(
      /\{\{fingerprint:([a-z][a-z0-9-]*)\}\}/g,
      (whole, id: string) => vars.fingerprints?.[id] ?? whole,
    );
}
