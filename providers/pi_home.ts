/**
 * The user's own pi configuration: where `models.json` is, and the providers it declares (name → base URL
 * and wire API). pi keeps custom providers there (the shipped `volcengine-plan` among them), so a profile
 * naming one gets its endpoint from it. Reading is the only side effect.
 */
import { modelsFile } from "../adapters/clis/pi.ts";
import type { ProviderType } from "../adapters/types.ts";

type EnvReader = (name: string) => string | undefined;

export { modelsFile, piAgentDir, piConfigDir } from "../adapters/clis/pi.ts";

export interface PiProvider {
  baseUrl?: string;
  providerType?: ProviderType;
}

const FROM_PI_API: Record<string, ProviderType> = {
  "openai-completions": "openai-completions",
  "openai-responses": "openai-responses",
  "anthropic-messages": "anthropic-messages",
  "google-generative-ai": "google-gemini",
};

/** The providers a models.json text declares; null when it is not JSON with a `providers` object. Pure. */
export function parsePiProviders(text: string): Record<string, PiProvider> | null {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return null;
  }
  const providers = (parsed as { providers?: unknown })?.providers;
  if (!providers || typeof providers !== "object") return null;
  const out: Record<string, PiProvider> = {};
  for (const [name, entry] of Object.entries(providers as Record<string, Record<string, unknown>>)) {
    const baseUrl = typeof entry?.baseUrl === "string" ? entry.baseUrl : undefined;
    const providerType = typeof entry?.api === "string" ? FROM_PI_API[entry.api] : undefined;
    out[name] = { ...(baseUrl ? { baseUrl } : {}), ...(providerType ? { providerType } : {}) };
  }
  return out;
}

/** The user's pi providers, or null when there is no readable models.json. */
export function readPiProviders(env: EnvReader): Record<string, PiProvider> | null {
  const file = modelsFile(env);
  if (!file) return null;
  try {
    return parsePiProviders(Deno.readTextFileSync(file));
  } catch {
    return null;
  }
}
