/**
 * Kimi Code (`kimi --print --output-format stream-json`). Print mode
 * auto-approves tools and answers its own questions; the prompt comes on
 * stdin; the endpoint is declared in a private `~/.kimi/config.toml` whose key
 * stays empty, because the key travels in KIMI_API_KEY / OPENAI_API_KEY.
 * Built from Kimi's documented print mode; not installable here.
 */
import { join } from "../base/path.ts";
import { finishKimi, parseKimiLine } from "./streams/kimi.ts";
import { homeEnv, tmpDirFile, withKey } from "./plan_util.ts";
import { configSetting } from "./capabilities/settings.ts";
import type { LaunchPlan, LaunchSpec, ProviderType, WorkerAdapter } from "./types.ts";
import { kimiCli } from "./clis/kimi.ts";
import { defineAdapter } from "./clis/record.ts";

/** Kimi's provider types for each wire protocol; the Kimi API itself is OpenAI-shaped. */
const KIMI_TYPE: Record<ProviderType, string> = {
  "openai-completions": "openai_legacy",
  "openai-responses": "openai_responses",
  "anthropic-messages": "anthropic",
  "google-gemini": "gemini",
};
/** Kimi K2's window, the model entry's required size when the profile sets no maxContextSize. */
const DEFAULT_CONTEXT = 262_144;
const q = (value: string) => JSON.stringify(value);

function config(spec: LaunchSpec): string {
  const { provider, model, baseUrl, providerType } = spec.profile;
  const context = configSetting("kimi", spec.profile, "maxContextSize") ?? DEFAULT_CONTEXT;
  const steps = configSetting("kimi", spec.profile, "maxTurns");
  const type = provider.startsWith("kimi") || provider === "moonshot"
    ? "kimi"
    : KIMI_TYPE[providerType ?? "openai-completions"];
  return [
    `default_model = ${q(model)}`,
    "",
    `[models.${q(model)}]`,
    `provider = ${q(provider)}`,
    `model = ${q(model)}`,
    `max_context_size = ${context}`,
    "",
    `[providers.${q(provider)}]`,
    `type = ${q(type)}`,
    ...(baseUrl ? [`base_url = ${q(baseUrl)}`] : []),
    `api_key = ""`,
    ...(steps !== undefined ? ["", "[loop_control]", `max_steps_per_turn = ${steps}`] : []),
  ].join("\n") + "\n";
}

function plan(spec: LaunchSpec): LaunchPlan {
  const env = withKey({ ...homeEnv(spec) }, spec, ["KIMI_API_KEY", "OPENAI_API_KEY"]);
  return {
    argv: [
      spec.binary,
      ...["--print", "--output-format", "stream-json"],
      ...["--work-dir", spec.worktree, "--model", spec.profile.model],
    ],
    env,
    files: [{ path: join(spec.homeDir, ".kimi", "config.toml"), content: config(spec) }, tmpDirFile(spec)],
    stdinFile: spec.promptFile,
  };
}

export const kimiAdapter: WorkerAdapter = defineAdapter(kimiCli, {
  plan,
  parseLine: parseKimiLine,
  finish: finishKimi,
});
