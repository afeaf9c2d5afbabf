/**
 * pi (`@mariozechner/pi-coding-agent`), the seed's worker: JSON mode, its own sessions in the run directory,
 * its providers declared in the user's `models.json` (which spot reads for endpoints, see providers/pi_home.ts).
 */
import { dirname, join } from "../../base/path.ts";
import { type CliRecord, type ProfileInput, underHome, UP_TO_XHIGH } from "./record.ts";

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
};
