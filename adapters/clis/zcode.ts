/** Zhipu's ZCode (`zcode -p --json`), which shares its OAuth login with the ZCode desktop app. */
import type { CliRecord } from "./record.ts";
import { dotDir, noSettings, SESSIONS_IN_PRIVATE_HOME } from "./record.ts";

export const zcodeCli: CliRecord = {
  name: "zcode",
  title: "ZCode",
  defaultBinary: "zcode",
  detect: { versionArgs: ["--version"], candidateDirs: [".zcode/bin", ".local/bin"] },
  install: "install the ZCode app from Z.ai and put its zcode command on PATH",
  // its headless mode has no read-only switch
  selfReviewReadOnly: "nobody",
  sessions: SESSIONS_IN_PRIVATE_HOME,
  settings: noSettings("zcode"),
  network: { takesBaseUrl: false, hosts: ["open.bigmodel.cn:443", "api.z.ai:443"] },
  homeFiles: [dotDir(".zcode", ["config.json"])],
  endpoints: {
    zai: { baseUrl: "https://api.z.ai/api/coding/paas/v4", providerType: "openai-completions" },
  },
  profiles: {
    // ZCode has no --model flag: it runs the model its TUI last persisted.
    zcode: { adapter: "zcode", provider: "zhipu", model: "default" },
  },
};
