/**
 * pi reads provider keys from `~/.pi/agent/models.json`: `apiKey` is a
 * variable name (`VAR`, `$VAR` or `${VAR}`), a literal, or `!command`. If it
 * names another variable than the profile's `apiKeyEnv`, spot checks one
 * variable and pi reads another. Pure.
 */
import type { EnvReader } from "../store/paths.ts";
export { modelsFile } from "../providers/pi_home.ts";

export interface KeyCheck {
  ok: boolean;
  /** true when there is something to look at but nothing is wrong enough to fail. */
  warn?: boolean;
  detail: string;
  fix?: string;
}

/** The variable an apiKey value names, or null for a literal or a command. */
export function keyReference(apiKey: string): string | null {
  const m = apiKey.trim().match(
    /^\$\{([A-Za-z_][A-Za-z0-9_]*)\}$|^\$([A-Za-z_][A-Za-z0-9_]*)$|^([A-Z_][A-Z0-9_]*)$/,
  );
  return m ? (m[1] ?? m[2] ?? m[3]) : null;
}

export function checkPiProvider(
  models: unknown,
  options: { file: string; provider: string; profile: string; apiKeyEnv: string; env: EnvReader },
): KeyCheck {
  const { file, provider, profile, apiKeyEnv } = options;
  const providers = (models as { providers?: Record<string, { apiKey?: unknown }> } | null)?.providers;
  const entry = providers && Object.hasOwn(providers, provider) ? providers[provider] : undefined;
  if (!entry) {
    return {
      ok: true,
      warn: true,
      detail: `provider "${provider}" is not in ${file}: pi's built-in settings for it apply, if it has any`,
    };
  }
  if (typeof entry.apiKey !== "string") {
    return { ok: true, warn: true, detail: `provider "${provider}" in ${file} has no apiKey` };
  }
  if (entry.apiKey.startsWith("!")) {
    return {
      ok: true,
      warn: true,
      detail: `provider "${provider}" gets its key from a command; not checked`,
    };
  }
  const named = keyReference(entry.apiKey);
  if (named === null) {
    return {
      ok: false,
      detail: `provider "${provider}" in ${file} holds a literal key`,
      fix:
        `move the key into ${apiKeyEnv} and set providers.${provider}.apiKey to "$${apiKeyEnv}" in ${file}`,
    };
  }
  if (named === apiKeyEnv) return { ok: true, detail: `provider "${provider}" reads $${apiKeyEnv}` };
  // Point the side that names an unset variable at the one that is set.
  const configSide = !options.env(apiKeyEnv) && !!options.env(named);
  return {
    ok: false,
    detail:
      `provider "${provider}" in ${file} reads $${named}, but profile "${profile}" has apiKeyEnv ${apiKeyEnv}`,
    fix: configSide
      ? `set profiles.${profile}.apiKeyEnv to "${named}" in the spot config`
      : `set providers.${provider}.apiKey to "$${apiKeyEnv}" in ${file}`,
  };
}
