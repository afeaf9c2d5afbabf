/**
 * Where well-known providers answer, for a keyed profile that names none: the forwarder needs an upstream URL
 * to hold the key outside the sandbox. These are defaults a user overrides with `providerEndpoints` in the
 * config or `baseUrl` on a profile. This machine reaches no provider, so none is verified here; each is the
 * provider's documented API root at the time of writing.
 */
import { CLI_RECORDS, type Endpoint } from "../adapters/clis/mod.ts";

export type { Endpoint } from "../adapters/clis/mod.ts";

/** Providers no worker CLI of spot's speaks for: pi (or another CLI given a baseUrl) reaches them. */
const OTHER_PROVIDERS: Record<string, Endpoint> = {
  deepseek: { baseUrl: "https://api.deepseek.com/v1", providerType: "openai-completions" },
  "minimax-cn": { baseUrl: "https://api.minimaxi.com/anthropic", providerType: "anthropic-messages" },
  minimax: { baseUrl: "https://api.minimax.io/anthropic", providerType: "anthropic-messages" },
  "volcengine-plan": {
    baseUrl: "https://ark.cn-beijing.volces.com/api/coding/v3",
    providerType: "openai-completions",
  },
  openrouter: { baseUrl: "https://openrouter.ai/api/v1", providerType: "openai-completions" },
};

/** Every well-known provider: those above, and those each CLI's record names for its own vendor. */
export const DEFAULT_PROVIDER_ENDPOINTS: Record<string, Endpoint> = Object.assign(
  {},
  OTHER_PROVIDERS,
  ...CLI_RECORDS.map((r) => r.endpoints ?? {}),
);
