/**
 * Which exit codes a failure gets: spot's (2-6 by kind of failure, the README's table) or, when a parent
 * written for the original pi-worker asks for them, the original's (2 for a usage error, 1 for every other
 * error). The error JSON on stderr is the same either way; only the number changes (docs/migration.md).
 */
import { type ErrorCode, SpotError } from "../errors.ts";
import { lazy } from "../base/lazy.ts";
import { resolvePaths } from "../store/paths.ts";

export const EXIT_STYLES = ["spot", "pi-worker"] as const;
export type ExitStyle = typeof EXIT_STYLES[number];

/** The environment switch; it wins over the config's `exitCodes`, so one parent can ask for its own codes. */
export const EXIT_STYLE_ENV = "SPOT_EXIT_CODES";

/** The original exited 2 for a usage error only. */
const PI_WORKER_USAGE = 2;
/** ... and 1 for everything else it reported. */
const PI_WORKER_ERROR = 1;

/** Pure: the exit code of a failure with this error code, in the style asked for. */
export function exitCodeFor(code: ErrorCode, spotExit: number, style: ExitStyle): number {
  if (style === "spot") return spotExit;
  if (code === "CLI_USAGE") return PI_WORKER_USAGE;
  // A cancelled picker is an interrupt: 130 in both tools.
  if (code === "CANCELLED") return spotExit;
  return PI_WORKER_ERROR;
}

/**
 * Pure: the exit code of a verb a signal interrupted. spot always says which signal; the original did so
 * only when the command had otherwise succeeded (an interrupted turn was an error, exit 1).
 */
export function signalExitFor(signalExit: number, exitSoFar: number, style: ExitStyle): number {
  return style === "pi-worker" && exitSoFar !== 0 ? exitSoFar : signalExit;
}

function isStyle(value: unknown): value is ExitStyle {
  return typeof value === "string" && (EXIT_STYLES as readonly string[]).includes(value);
}

/** The environment's choice, or null; an unknown value is a usage error, told before the command runs. */
export function exitStyleFromEnv(env: (name: string) => string | undefined): ExitStyle | null {
  const value = env(EXIT_STYLE_ENV);
  if (value === undefined || value === "") return null;
  if (isStyle(value)) return value;
  throw new SpotError(
    "CLI_USAGE",
    `Cannot read ${EXIT_STYLE_ENV}="${value}": expected ${EXIT_STYLES.join(" or ")}`,
    { details: { hint: `unset it for spot's exit codes, or set it to pi-worker for the original's` } },
  );
}

/**
 * The style for this process: the environment's, else the config file's top-level `exitCodes`. Read only on
 * a failure, and leniently (a config that failed validation still says which codes its owner wants).
 */
export async function exitStyle(env: (name: string) => string | undefined): Promise<ExitStyle> {
  try {
    const fromEnv = exitStyleFromEnv(env);
    if (fromEnv) return fromEnv;
    const text = Deno.readTextFileSync(resolvePaths(env).configFile);
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      value = (await lazy<typeof import("./jsonc_peek.ts")>("./jsonc_peek.ts", import.meta.url)).parseLoose(
        text,
      );
    }
    const chosen = (value as { exitCodes?: unknown } | null)?.exitCodes;
    return isStyle(chosen) ? chosen : "spot";
  } catch {
    return "spot";
  }
}
