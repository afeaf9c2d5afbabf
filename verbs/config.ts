/** `spot config path|show|validate`: these work even when the config itself is broken. */
import { SpotError } from "../errors.ts";
import type { Config } from "../schemas/config.ts";
import { loadConfig, parseConfig, readConfigText } from "../config/load.ts";
import { type EnvReader, resolvePaths } from "../store/paths.ts";

export async function configPath(env: EnvReader): Promise<{ path: string; exists: boolean }> {
  const path = resolvePaths(env).configFile;
  return { path, exists: (await readConfigText(path)) !== null };
}

/** The effective config: the file with every default filled in (written with defaults on first use). */
export async function configShow(env: EnvReader): Promise<{ path: string; config: Config }> {
  const path = resolvePaths(env).configFile;
  return { path, config: await loadConfig(path) };
}

/** Checks the file without writing anything; a missing file is reported, not created. */
export async function configValidate(
  env: EnvReader,
): Promise<{ path: string; valid: true; profiles: string[]; defaultProfile: string }> {
  const path = resolvePaths(env).configFile;
  const text = await readConfigText(path);
  if (text === null) {
    throw new SpotError("CONFIG_INVALID", `Cannot validate config "${path}": the file does not exist`, {
      details: { hint: "any spot command creates it with defaults; spot config show prints them" },
    });
  }
  const config = parseConfig(path, text);
  return { path, valid: true, profiles: Object.keys(config.profiles), defaultProfile: config.defaultProfile };
}
