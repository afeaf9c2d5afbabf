/**
 * The one adapter a run needs, imported when the run needs it: a turn loads its own CLI's adapter and stream
 * reader, not all thirteen (adapters/mod.ts, which detection, doctor and the dashboard use, loads them all).
 */
import { lazy } from "../base/lazy.ts";
import type { WorkerAdapter } from "./types.ts";

type Loader = () => Promise<WorkerAdapter>;

const LOADERS: Readonly<Record<string, Loader>> = {
  pi: async () => (await lazy<typeof import("./pi.ts")>("./pi.ts", import.meta.url)).piAdapter,
  replay: async () =>
    (await lazy<typeof import("./replay.ts")>("./replay.ts", import.meta.url)).replayAdapter,
  opencode: async () =>
    (await lazy<typeof import("./opencode.ts")>("./opencode.ts", import.meta.url)).opencodeAdapter,
  codex: async () => (await lazy<typeof import("./codex.ts")>("./codex.ts", import.meta.url)).codexAdapter,
  claude: async () =>
    (await lazy<typeof import("./claude.ts")>("./claude.ts", import.meta.url)).claudeAdapter,
  gemini: async () =>
    (await lazy<typeof import("./gemini.ts")>("./gemini.ts", import.meta.url)).geminiAdapter,
  qwen: async () => (await lazy<typeof import("./qwen.ts")>("./qwen.ts", import.meta.url)).qwenAdapter,
  kilo: async () => (await lazy<typeof import("./kilo.ts")>("./kilo.ts", import.meta.url)).kiloAdapter,
  kimi: async () => (await lazy<typeof import("./kimi.ts")>("./kimi.ts", import.meta.url)).kimiAdapter,
  qoder: async () => (await lazy<typeof import("./qoder.ts")>("./qoder.ts", import.meta.url)).qoderAdapter,
  trae: async () => (await lazy<typeof import("./trae.ts")>("./trae.ts", import.meta.url)).traeAdapter,
  codebuddy: async () =>
    (await lazy<typeof import("./codebuddy.ts")>("./codebuddy.ts", import.meta.url)).codebuddyAdapter,
  zcode: async () => (await lazy<typeof import("./zcode.ts")>("./zcode.ts", import.meta.url)).zcodeAdapter,
};

/** The names a loader exists for (held equal to adapters/mod.ts's table by load_test.ts). */
export const LOADABLE_ADAPTERS: readonly string[] = Object.keys(LOADERS);

/** The adapter a profile names, or undefined for an unknown name. */
export async function loadAdapter(name: string): Promise<WorkerAdapter | undefined> {
  return Object.hasOwn(LOADERS, name) ? await LOADERS[name]() : undefined;
}
