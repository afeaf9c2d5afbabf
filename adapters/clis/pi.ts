/**
 * The pi coding agent (`pi -p --mode json`). The plan pins every knob that
 * could make a run depend on the host: a private agent dir, no extensions,
 * skills or context files, no update checks, and the prompt on stdin.
 */
import { dirname, join } from "../../base/path.ts";
import { type CliRecord, type ProfileInput, underHome, UP_TO_XHIGH } from "./record.ts";
import { configSetting, settingFlags } from "../capabilities/routes.ts";
import type { LaunchPlan, LaunchSpec, ProviderType } from "../types.ts";
import { lazy } from "../../base/lazy.ts";

const stream = () => lazy<typeof import("../streams/pi.ts")>("../streams/pi.ts", import.meta.url);

type EnvReader = (name: string) => string | undefined;

/** pi's agent dir: `PI_CODING_AGENT_DIR`, else `~/.pi/agent`; null without HOME. */
export function piAgentDir(env: EnvReader): string | null {
  return env("PI_CODING_AGENT_DIR") || underHome(env, ".pi", "agent");
}

/** The models.json spot reads for pi: `PI_WORKER_MODELS_FILE`, else the agent dir's. */
export function modelsFile(env: EnvReader): string | null {
  const override = env("PI_WORKER_MODELS_FILE");
  if (override) return override;
  const dir = piAgentDir(env);
  return dir ? join(dir, "models.json") : null;
}

/** The agent dir whose files a worker's private home gets: the one holding the models.json spot reads. */
export function piConfigDir(env: EnvReader): string | null {
  const file = modelsFile(env);
  return file ? dirname(file) : null;
}

/** `pi --list-models` prints a table: provider, model, then details. */
export function parsePiModels(stdout: string): string[] {
  return stdout.split("\n").slice(1).map((l) => l.trim().split(/\s+/)).filter((c) =>
    c.length >= 2 && c[1] !== ""
  )
    .map((c) => `${c[0]}/${c[1]}`);
}

/** Only the profile's own provider of a copied models.json: another entry may hold a key as a literal. */
function narrowModels(to: string, text: string, provider: string): string {
  if (!to.endsWith("models.json")) return text;
  try {
    const parsed = JSON.parse(text) as { providers?: Record<string, unknown> };
    const own = parsed.providers?.[provider];
    return JSON.stringify({ ...parsed, providers: own === undefined ? {} : { [provider]: own } }, null, 2);
  } catch {
    // Not JSON: pi would refuse it too; nothing of it is shown.
    return "{}";
  }
}

/** The seed's Pi-backed providers, one per cost tier and modality. */
const PROFILES: Record<string, ProfileInput> = {
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

export const piCli: CliRecord = {
  name: "pi",
  title: "Pi",
  defaultBinary: "pi",
  detect: {
    versionArgs: ["--version"],
    modelListArgs: ["--list-models"],
    parseModelList: parsePiModels,
    candidateDirs: [".npm-global/bin", ".local/bin", ".bun/bin"],
    minimumVersion: "0.70.0",
  },
  install: "npm install -g @mariozechner/pi-coding-agent",
  // only the read tools are registered
  selfReviewReadOnly: "cli",
  // its sessions live in the run directory (`--session-dir`)
  sessions: { resumes: true },
  settings: {
    reasoningEffort: { via: "flag", name: "--thinking", values: UP_TO_XHIGH },
    maxContextSize: { via: "config", name: "models.json contextWindow", needsBaseUrl: true },
    maxTurns: { via: "none", why: "pi has no turn limit" },
  },
  network: { takesBaseUrl: true, hosts: [] },
  homeFiles: [{
    dir: piConfigDir,
    to: ".pi/agent",
    config: ["models.json", "settings.json"],
    login: ["auth.json"],
  }],
  narrowHomeFile: narrowModels,
  profiles: PROFILES,
  listed: 1,
  plan,
  reader: async () => {
    const { parsePiLine, finishPi } = await stream();
    return { parseLine: parsePiLine, finish: finishPi };
  },
};

/** pi's default reasoning effort is low; coding tasks benefit from more. */
const DEFAULT_THINKING = "high";
/** Editing phases get the write tools; bash stays off so commands run only in verify steps. */
const EDIT_TOOLS = "read,grep,find,ls,edit,write";
/** Self-review must read the change, never alter it. */
const READ_TOOLS = "read,grep,find,ls";
/** One agent-level retry: spot retries transient failures itself, with its own budget. */
const PI_MAX_RETRIES = 1;
/** pi's name for each wire protocol; a custom endpoint without a type speaks OpenAI chat, as local servers do. */
const PI_API: Record<ProviderType, string> = {
  "openai-completions": "openai-completions",
  "openai-responses": "openai-responses",
  "anthropic-messages": "anthropic-messages",
  "google-gemini": "google-generative-ai",
};
/** pi needs some key for a custom provider; a keyless local server ignores this one. */
const NO_KEY_PLACEHOLDER = "none";

function agentDir(homeDir: string): string {
  return join(homeDir, ".pi", "agent");
}

/** The profile's retry budget and request timeout become pi's agent and provider retry settings. */
function settings(spec: LaunchSpec): string {
  const { maxRetries, requestTimeoutSeconds } = spec.profile;
  const provider = {
    ...(maxRetries !== undefined ? { maxRetries } : {}),
    ...(requestTimeoutSeconds !== undefined ? { timeoutMs: requestTimeoutSeconds * 1000 } : {}),
  };
  const retry = {
    enabled: true,
    maxRetries: maxRetries ?? PI_MAX_RETRIES,
    ...(Object.keys(provider).length > 0 ? { provider } : {}),
  };
  return JSON.stringify({ quietStartup: true, enableInstallTelemetry: false, retry }, null, 2);
}

/** Declares the profile's provider at its base URL; `apiKey` names the env var, pi resolves it. */
function models(spec: LaunchSpec, baseUrl: string): string {
  const { provider, model, apiKeyEnv } = spec.profile;
  const contextWindow = configSetting(piCli.settings, spec.profile, "maxContextSize");
  // pi sends a thinking level only to a model it knows can reason; a profile that asks for an effort says so.
  const reasoning = spec.profile.reasoningEffort !== undefined;
  const declared = {
    baseUrl,
    api: PI_API[spec.profile.providerType ?? "openai-completions"],
    apiKey: apiKeyEnv ?? NO_KEY_PLACEHOLDER,
    models: [{
      id: model,
      ...(reasoning ? { reasoning } : {}),
      ...(contextWindow !== undefined ? { contextWindow } : {}),
    }],
  };
  return JSON.stringify({ providers: { [provider]: declared } }, null, 2);
}

function plan(spec: LaunchSpec): LaunchPlan {
  const { profile, homeDir } = spec;
  const tools = spec.phase === "self-review" ? READ_TOOLS : EDIT_TOOLS;
  // reasoningEffort is --thinking (adapters/capabilities/settings.ts); the pi-only `thinking` and the default fill in.
  const effort = settingFlags(piCli.settings, { reasoningEffort: profile.reasoningEffort });
  const argv = [
    spec.binary,
    ...["-p", "--mode", "json"],
    ...["--provider", profile.provider, "--model", profile.model],
    ...(effort.length > 0 ? effort : ["--thinking", profile.thinking ?? DEFAULT_THINKING]),
    ...["--session-dir", join(spec.runDir, "pi-session")],
    // pi finds the session by its id among the files of --session-dir.
    ...(spec.resumeSession ? ["--session", spec.resumeSession] : []),
    ...["--tools", tools],
    ...["--no-extensions", "--no-skills", "--no-prompt-templates", "--no-themes", "--no-context-files"],
  ];
  const env: Record<string, string> = {
    ...spec.baseEnv,
    HOME: homeDir,
    PI_CODING_AGENT_DIR: agentDir(homeDir),
    PI_OFFLINE: "1",
    PI_TELEMETRY: "0",
    PI_SKIP_VERSION_CHECK: "1",
    CI: "1",
    NO_COLOR: "1",
  };
  // The key travels only in the environment: argv is world-readable and files outlive the run.
  if (profile.apiKeyEnv && spec.apiKey !== undefined) env[profile.apiKeyEnv] = spec.apiKey;
  const files = [{ path: join(agentDir(homeDir), "settings.json"), content: settings(spec) }];
  if (profile.baseUrl) {
    files.push({ path: join(agentDir(homeDir), "models.json"), content: models(spec, profile.baseUrl) });
  }
  return { argv, env, files, stdinFile: spec.promptFile };
}
