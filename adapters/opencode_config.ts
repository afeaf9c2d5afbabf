/** The opencode.json (and kilo.json) spot writes for a run: one provider, fixed permissions, no sharing. */
import type { LaunchSpec, ProviderType } from "./types.ts";
import { seconds } from "./plan_util.ts";
import { configSetting } from "./capabilities/routes.ts";
import type { AdapterSettings } from "./clis/record.ts";

/** The AI SDK package each wire protocol needs; all of them ship inside the binary. */
const SDK: Record<ProviderType, string> = {
  "openai-completions": "@ai-sdk/openai-compatible",
  "openai-responses": "@ai-sdk/openai",
  "anthropic-messages": "@ai-sdk/anthropic",
  "google-gemini": "@ai-sdk/google",
};

/** opencode and its fork kilo take the same settings the same way. */
export const OPENCODE_FAMILY_SETTINGS: AdapterSettings = {
  reasoningEffort: {
    via: "config",
    name: "provider.<p>.models.<m>.options.reasoningEffort",
    needsBaseUrl: true,
  },
  maxContextSize: {
    via: "none",
    why: "its model limit needs an output limit beside the context one, and a profile has none",
  },
  maxTurns: { via: "config", name: "agent.build.steps" },
};

/** Edits are the job; shell commands run only in spot's own verify steps; the web only for research. */
function permission(spec: LaunchSpec): Record<string, string> {
  const edit = spec.phase === "self-review" ? "deny" : "allow";
  const web = spec.web ? "allow" : "deny";
  return { edit, bash: "deny", webfetch: web, websearch: web, external_directory: "deny" };
}

export function opencodeConfig(spec: LaunchSpec, schemaUrl: string): Record<string, unknown> {
  const { provider, model, apiKeyEnv, baseUrl, providerType } = spec.profile;
  const timeout = seconds(spec.profile.requestTimeoutSeconds);
  const options: Record<string, unknown> = {
    ...(baseUrl ? { baseURL: baseUrl } : {}),
    ...(apiKeyEnv ? { apiKey: `{env:${apiKeyEnv}}` } : {}),
    // A dead provider fails in seconds instead of the 5-minute default.
    ...(timeout ? { headerTimeout: timeout, chunkTimeout: timeout } : {}),
  };
  const declared: Record<string, unknown> = { options };
  const effort = configSetting(OPENCODE_FAMILY_SETTINGS, spec.profile, "reasoningEffort");
  const steps = configSetting(OPENCODE_FAMILY_SETTINGS, spec.profile, "maxTurns");
  if (baseUrl) {
    declared.npm = SDK[providerType ?? "openai-completions"];
    declared.name = provider;
    declared.models = {
      [model]: { name: model, ...(effort ? { options: { reasoningEffort: effort } } : {}) },
    };
  }
  return {
    $schema: schemaUrl,
    autoupdate: false,
    share: "disabled",
    // A shadow git repo of the worktree is wasted work: spot snapshots and diffs itself.
    snapshot: false,
    model: `${provider}/${model}`,
    small_model: `${provider}/${model}`,
    enabled_providers: [provider],
    permission: permission(spec),
    // `opencode run` drives the build agent; its steps cap the agentic iterations.
    ...(steps !== undefined ? { agent: { build: { steps } } } : {}),
    provider: { [provider]: declared },
  };
}
