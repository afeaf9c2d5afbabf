/** ByteDance's Trae CLI (`traecli`), logged in with OAuth; prints one JSON result. */
import type { CliRecord } from "./record.ts";
import { dotDir, noSettings, SESSIONS_IN_PRIVATE_HOME } from "./record.ts";

export const traeCli: CliRecord = {
  name: "trae",
  title: "Trae CLI",
  defaultBinary: "traecli",
  detect: { versionArgs: ["--version"], candidateDirs: [".trae/bin", ".local/bin"] },
  install: 'sh -c "$(curl -fsSL https://trae.cn/trae-cli/install_v2.sh)"',
  // --yolo approves every tool
  selfReviewReadOnly: "nobody",
  sessions: SESSIONS_IN_PRIVATE_HOME,
  settings: noSettings("traecli"),
  network: { takesBaseUrl: false, hosts: ["trae.ai:443", "api.trae.ai:443"] },
  homeFiles: [dotDir(".trae", ["trae_cli.yaml"])],
  profiles: { "trae-cli": { adapter: "trae", provider: "trae", model: "trae-default", costTier: "premium" } },
};
