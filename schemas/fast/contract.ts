/**
 * The fast path of a task contract: a contract that is plainly valid is accepted without loading zod (about
 * 60 ms of CPU in every `spot prepare` and `spot agent start`; docs/performance.md). It accepts only what
 * `TaskContract` in schemas/task_contract.ts accepts, and returns what that schema returns: the same keys in
 * the same order, its defaults filled in. Anything else (a problem, a check with its own `env`, a value it is
 * not sure of) returns null and goes to zod, which says what is wrong. schemas/fast/contract_test.ts holds it
 * to that on mutated contracts.
 */
import { RUN_ID_PATTERN } from "../constants.ts";
import type { TaskContract } from "../task_contract.ts";

/** The schema's keys in its order: zod's output follows it. */
const KEYS = [
  "schemaVersion",
  "runId",
  "repositoryRoot",
  "baseRevision",
  "goal",
  "allowedPaths",
  "forbiddenPaths",
  "lockedPaths",
  "constraints",
  "acceptanceCriteria",
  "verification",
  "requiredCapabilities",
  "risk",
  "difficulty",
  "domain",
];
const DEFAULTS: Record<string, () => unknown> = {
  forbiddenPaths: () => [],
  lockedPaths: () => [],
  constraints: () => [],
  requiredCapabilities: () => ["text", "code"],
};
const CAPABILITIES = new Set(["text", "code", "tool-use", "vision-input", "image-output"]);
const LEVELS = new Set(["low", "medium", "high"]);
const DOMAINS = new Set(["frontend", "backend", "systems", "algorithm", "refactor", "docs"]);

const plainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value) &&
  Object.getPrototypeOf(value) === Object.prototype;
const text = (value: unknown, min: number, max: number): value is string =>
  typeof value === "string" && value.length >= min && value.length <= max;
const int = (value: unknown, min: number, max: number) =>
  typeof value === "number" && Number.isSafeInteger(value) && value >= min && value <= max;

function list(value: unknown, item: (v: unknown) => boolean, min: number, unique: boolean): boolean {
  if (!Array.isArray(value) || value.length < min || !value.every(item)) return false;
  return !unique || new Set(value).size === value.length;
}

// deno-lint-ignore no-control-regex
const CONTROL = /[\u0000-\u001f]/;

function glob(v: unknown): boolean {
  return text(v, 1, 500) && !v.startsWith("/") && !/^[A-Za-z]:/.test(v) && !v.split("/").includes("..") &&
    !v.includes("\\") && !CONTROL.test(v);
}

function check(v: unknown): boolean {
  if (!plainObject(v)) return false;
  const keys = Object.keys(v);
  if (keys.length !== 2 || !Object.hasOwn(v, "argv") || !Object.hasOwn(v, "timeoutSeconds")) return false;
  if (!list(v.argv, (a) => text(a, 1, 4000), 1, false) || !int(v.timeoutSeconds, 1, 3600)) return false;
  const first = (v.argv as string[])[0];
  return !/\s/.test(first) && !/[;&|`$<>]/.test(first);
}

const FIELDS: Record<string, (v: unknown) => boolean> = {
  schemaVersion: (v) => v === 1,
  runId: (v) => typeof v === "string" && RUN_ID_PATTERN.test(v) && !v.includes("..") && !v.endsWith(".lock"),
  repositoryRoot: (v) => typeof v === "string" && v.startsWith("/"),
  baseRevision: (v) => typeof v === "string" && /^[0-9a-f]{40,64}$/.test(v),
  goal: (v) => text(v, 10, 4000),
  allowedPaths: (v) => list(v, glob, 1, true),
  forbiddenPaths: (v) => list(v, glob, 0, true),
  lockedPaths: (v) => list(v, glob, 0, true),
  constraints: (v) => list(v, (c) => text(c, 1, 1000), 0, true),
  acceptanceCriteria: (v) => list(v, (c) => text(c, 1, 1000), 1, true),
  verification: (v) => list(v, check, 1, false),
  requiredCapabilities: (v) => list(v, (c) => typeof c === "string" && CAPABILITIES.has(c), 1, true),
  risk: (v) => typeof v === "string" && LEVELS.has(v),
  difficulty: (v) => typeof v === "string" && LEVELS.has(v),
  domain: (v) => typeof v === "string" && DOMAINS.has(v),
};
const REQUIRED = new Set([
  "schemaVersion",
  "goal",
  "allowedPaths",
  "acceptanceCriteria",
  "verification",
  "risk",
]);

/** The contract as the schema returns it when it is plainly valid, else null (the caller asks zod). */
export function plainContract(value: unknown): TaskContract | null {
  if (!plainObject(value)) return null;
  for (const key of Object.keys(value)) if (!Object.hasOwn(FIELDS, key)) return null;
  const out: Record<string, unknown> = {};
  for (const key of KEYS) {
    if (!Object.hasOwn(value, key)) {
      if (REQUIRED.has(key)) return null;
      if (DEFAULTS[key]) out[key] = DEFAULTS[key]();
      continue;
    }
    if (!FIELDS[key](value[key])) return null;
    out[key] = value[key];
  }
  return out as unknown as TaskContract;
}
