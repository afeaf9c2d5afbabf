/**
 * What each worker CLI can be pointed at, and where it goes on its own. A CLI that takes a base URL can run
 * behind the forwarder (the key stays outside); one that cannot, or that logs in with OAuth, can only run
 * behind the allowlist proxy, reaching the hosts below. The hosts are the ones each CLI's documentation names
 * for its default service and login; this machine reaches none of them, so they are not verified here, and a
 * profile's `egressHosts` replaces them.
 */

/** Adapters whose launch plan passes `baseUrl` on to the CLI (see each adapter's plan). */
export const TAKES_BASE_URL = new Set([
  "pi",
  "opencode",
  "kilo",
  "codex",
  "claude",
  "gemini",
  "qwen",
  "kimi",
]);

/** Adapters that need no network at all. */
export const OFFLINE_ADAPTERS = new Set(["replay"]);

/** `host:port` each CLI reaches for its own service and login when it is not given a base URL. */
export const DEFAULT_CLI_HOSTS: Record<string, string[]> = {
  opencode: ["opencode.ai:443", "models.dev:443"],
  kilo: ["api.kilo.ai:443", "kilocode.ai:443", "models.dev:443"],
  codex: ["chatgpt.com:443", "auth.openai.com:443", "api.openai.com:443"],
  claude: ["api.anthropic.com:443", "console.anthropic.com:443", "statsig.anthropic.com:443"],
  gemini: [
    "generativelanguage.googleapis.com:443",
    "cloudcode-pa.googleapis.com:443",
    "oauth2.googleapis.com:443",
  ],
  qwen: ["chat.qwen.ai:443", "dashscope.aliyuncs.com:443"],
  kimi: ["api.kimi.com:443", "api.moonshot.cn:443"],
  qoder: ["qoder.com:443", "api.qoder.com:443", "openapi.qoder.sh:443"],
  trae: ["trae.ai:443", "api.trae.ai:443"],
  codebuddy: ["codebuddy.ai:443", "www.codebuddy.ai:443", "copilot.tencent.com:443"],
  zcode: ["open.bigmodel.cn:443", "api.z.ai:443"],
};
