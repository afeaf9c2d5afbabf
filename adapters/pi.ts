/**
 * The pi coding agent (`pi -p --mode json`). The plan pins every knob that
 * could make a run depend on the host: a private agent dir, no extensions,
 * skills or context files, no update checks, and the prompt on stdin.
 */
import { join } from "../base/path.ts";
import { finishPi, parsePiLine } from "./streams/pi.ts";
import { configSetting, settingFlags } from "./capabilities/settings.ts";
import type { LaunchPlan, LaunchSpec, ProviderType, WorkerAdapter } from "./types.ts";
import { piCli } from "./clis/pi.ts";
import { defineAdapter } from "./clis/record.ts";

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
  const contextWindow = configSetting("pi", spec.profile, "maxContextSize");
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
  const effort = settingFlags("pi", { reasoningEffort: profile.reasoningEffort });
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

export const piAdapter: WorkerAdapter = defineAdapter(piCli, {
  plan,
  parseLine: parsePiLine,
  finish: finishPi,
});
