/** Launch-plan pieces every CLI adapter shares: a private HOME with XDG dirs, and the key by env only. */
import { join } from "../base/path.ts";
import type { LaunchSpec } from "./types.ts";

/** A per-run HOME holds every config and state file a CLI writes; XDG dirs and TMPDIR live inside it. */
export function homeEnv(spec: LaunchSpec): Record<string, string> {
  const home = spec.homeDir;
  return {
    ...spec.baseEnv,
    HOME: home,
    XDG_CONFIG_HOME: join(home, ".config"),
    XDG_DATA_HOME: join(home, ".local", "share"),
    XDG_STATE_HOME: join(home, ".local", "state"),
    XDG_CACHE_HOME: join(home, ".cache"),
    // Inside HOME but beside it, so no CLI state dir lies under the temp dir (codex refuses that).
    TMPDIR: join(home, "tmp"),
    CI: "1",
    NO_COLOR: "1",
  };
}

/** A placeholder that makes the runner create TMPDIR before launch. */
export function tmpDirFile(spec: LaunchSpec): { path: string; content: string } {
  return { path: join(spec.homeDir, "tmp", ".keep"), content: "" };
}

/** Puts the key under each name the CLI reads; argv is world-readable and files outlive the run. */
export function withKey(
  env: Record<string, string>,
  spec: LaunchSpec,
  names: string[],
): Record<string, string> {
  if (spec.apiKey === undefined) return env;
  const out = { ...env };
  for (const name of new Set([spec.profile.apiKeyEnv, ...names].filter((n): n is string => !!n))) {
    out[name] = spec.apiKey;
  }
  return out;
}

/** The base URL with one trailing `/v1`, for CLIs that append the path themselves. */
export function withV1(url: string): string {
  const bare = url.replace(/\/+$/, "");
  return /\/v\d+(beta)?$/.test(bare) ? bare : `${bare}/v1`;
}

/** The base URL without a trailing `/v1`, for CLIs that add it (Anthropic, Gemini). */
export function withoutV1(url: string): string {
  return url.replace(/\/+$/, "").replace(/\/v1(beta)?$/, "");
}

export function seconds(value: number | undefined): number | undefined {
  return value === undefined ? undefined : value * 1000;
}

/** The prompt for CLIs that take it on argv only; spot passes the text beside the file. */
export function promptText(spec: LaunchSpec): string {
  if (spec.prompt === undefined) {
    throw new TypeError(`Cannot plan a ${spec.profile.adapter} launch without the prompt text`);
  }
  return spec.prompt;
}
