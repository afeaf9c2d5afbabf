/**
 * Where well-known providers answer, for a keyed profile that names none: the forwarder needs an upstream URL
 * to hold the key outside the sandbox. These are defaults a user overrides with `providerEndpoints` in the
 * config or `baseUrl` on a profile. This machine reaches no provider, so none is verified here; each is the
 * provider's documented API root at the time of writing.
 */
import type { ProviderType } from "../adapters/types.ts";

export interface Endpoint {
  baseUrl: string;
  providerType: ProviderType;
}

export const DEFAULT_PROVIDER_ENDPOINTS: Record<string, Endpoint> = {
  openai: { baseUrl: "https://api.openai.com/v1", providerType: "openai-responses" },
  anthropic: { baseUrl: "https://api.anthropic.com", providerType: "anthropic-messages" },
  google: { baseUrl: "https://generativelanguage.googleapis.com/v1beta", providerType: "google-gemini" },
  deepseek: { baseUrl: "https://api.deepseek.com/v1", providerType: "openai-completions" },
  "kimi-coding": { baseUrl: "https://api.kimi.com/coding", providerType: "anthropic-messages" },
  kimi: { baseUrl: "https://api.kimi.com/coding/v1", providerType: "openai-completions" },
  moonshot: { baseUrl: "https://api.moonshot.cn/v1", providerType: "openai-completions" },
  "minimax-cn": { baseUrl: "https://api.minimaxi.com/anthropic", providerType: "anthropic-messages" },
  minimax: { baseUrl: "https://api.minimax.io/anthropic", providerType: "anthropic-messages" },
  "volcengine-plan": {
    baseUrl: "https://ark.cn-beijing.volces.com/api/coding/v3",
    providerType: "openai-completions",
  },
  dashscope: {
    baseUrl: "https://dashscope.aliyuncs.com/compatible-mode/v1",
    providerType: "openai-completions",
  },
  openrouter: { baseUrl: "https://openrouter.ai/api/v1", providerType: "openai-completions" },
  zai: { baseUrl: "https://api.z.ai/api/coding/paas/v4", providerType: "openai-completions" },
};
