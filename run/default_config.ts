/** The config written on first use: the seed's profiles plus the built-in replay worker. */
import type { z } from "zod";
import type { Config } from "../schemas/config.ts";

export const DEFAULT_CONFIG: z.input<typeof Config> = {
  schemaVersion: 1,
  defaultProfile: "volcengine",
  maxConcurrentRuns: 4,
  maxRevisionRounds: 2,
  profiles: {
    replay: {
      adapter: "replay",
      provider: "replay",
      model: "",
      capabilities: ["text", "code", "tool-use"],
    },
    volcengine: {
      adapter: "pi",
      provider: "volcengine-plan",
      model: "ark-code-latest",
      apiKeyEnv: "VOLCENGINE_API_KEY",
      costTier: "standard",
    },
    deepseek: {
      adapter: "pi",
      provider: "deepseek",
      model: "deepseek-v4-flash",
      apiKeyEnv: "DEEPSEEK_API_KEY",
      costTier: "cheap",
    },
    kimi: {
      adapter: "pi",
      provider: "kimi-coding",
      model: "kimi-for-coding",
      apiKeyEnv: "KIMI_API_KEY",
      costTier: "standard",
    },
    "minimax-m3": {
      adapter: "pi",
      provider: "minimax-cn",
      model: "MiniMax-M3",
      apiKeyEnv: "MINIMAX_API_KEY",
      costTier: "premium",
    },
  },
};
