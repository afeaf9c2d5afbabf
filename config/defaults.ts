/**
 * The config written on first use: the seed's profiles, one profile per other
 * worker CLI, and the built-in replay worker. Profiles without a `costTier`
 * stay out of difficulty routing: they run only when named (`--profile`,
 * `callerProfiles`, a fallback chain, or the picker).
 */
import type { z } from "zod";
import type { Config, Profile } from "../schemas/config.ts";

type ProfileInput = z.input<typeof Profile>;

/** The seed's Pi-backed providers, one per cost tier and modality. */
const PI_PROFILES: Record<string, ProfileInput> = {
  volcengine: {
    adapter: "pi",
    provider: "volcengine-plan",
    model: "ark-code-latest",
    apiKeyEnv: "VOLCENGINE_API_KEY",
    costTier: "standard",
    fallbackProfiles: ["kimi"],
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
    fallbackProfiles: ["volcengine"],
  },
  "minimax-m3": {
    adapter: "pi",
    provider: "minimax-cn",
    model: "MiniMax-M3",
    apiKeyEnv: "MINIMAX_API_KEY",
    costTier: "premium",
  },
  "gemini-vision": {
    adapter: "pi",
    provider: "google",
    model: "gemini-2.5-pro",
    apiKeyEnv: "GEMINI_API_KEY",
    costTier: "premium",
    capabilities: ["text", "code", "tool-use", "vision-input"],
    modalities: ["text", "vision"],
  },
  "gpt-image": {
    adapter: "pi",
    provider: "openai",
    model: "gpt-image-1",
    apiKeyEnv: "OPENAI_API_KEY",
    costTier: "premium",
    capabilities: ["text", "image-output"],
    modalities: ["image-output"],
  },
};

/** The seed's alternate CLIs; most log in with OAuth, so they name no key variable. */
const ALTERNATE_CLI_PROFILES: Record<string, ProfileInput> = {
  // ZCode has no --model flag: it runs the model its TUI last persisted.
  zcode: { adapter: "zcode", provider: "zhipu", model: "default" },
  "kimi-cli": {
    adapter: "kimi",
    provider: "kimi",
    model: "kimi-for-coding",
    apiKeyEnv: "KIMI_API_KEY",
    baseUrl: "https://api.kimi.com/coding/v1",
    maxContextSize: 1_048_576,
    costTier: "standard",
  },
  "trae-cli": { adapter: "trae", provider: "trae", model: "trae-default", costTier: "premium" },
  // "free" is a price alias: it becomes the cheapest model the account can reach when the run is prepared.
  "qoder-cli": {
    adapter: "qoder",
    provider: "qoder",
    model: "free",
    apiKeyEnv: "QODERCN_PERSONAL_ACCESS_TOKEN",
    costTier: "free",
  },
  "codebuddy-cli": { adapter: "codebuddy", provider: "codebuddy", model: "deepseek-v4.1-flash" },
};

/** One profile for each other supported CLI, to name with --profile or pick interactively. */
const OTHER_CLI_PROFILES: Record<string, ProfileInput> = {
  opencode: { adapter: "opencode", provider: "opencode", model: "opencode/hy3-free" },
  codex: { adapter: "codex", provider: "openai", model: "gpt-5-codex", apiKeyEnv: "OPENAI_API_KEY" },
  claude: {
    adapter: "claude",
    provider: "anthropic",
    model: "claude-sonnet-4-5",
    apiKeyEnv: "ANTHROPIC_API_KEY",
  },
  gemini: { adapter: "gemini", provider: "google", model: "gemini-2.5-pro", apiKeyEnv: "GEMINI_API_KEY" },
  qwen: {
    adapter: "qwen",
    provider: "dashscope",
    model: "qwen3-coder-plus",
    apiKeyEnv: "DASHSCOPE_API_KEY",
    baseUrl: "https://dashscope.aliyuncs.com/compatible-mode/v1",
  },
  kilo: { adapter: "kilo", provider: "kilo", model: "auto" },
};

/** Always present, even when the user's file lists other profiles. Its model is the episode file. */
export const REPLAY_PROFILE: ProfileInput = {
  adapter: "replay",
  provider: "replay",
  model: "",
  capabilities: ["text", "code", "tool-use"],
};

export const DEFAULT_CONFIG: z.input<typeof Config> = {
  schemaVersion: 1,
  defaultProfile: "volcengine",
  maxConcurrentRuns: 4,
  maxRevisionRounds: 2,
  callerProfiles: {},
  profiles: {
    ...PI_PROFILES,
    ...ALTERNATE_CLI_PROFILES,
    ...OTHER_CLI_PROFILES,
    replay: REPLAY_PROFILE,
  },
};
