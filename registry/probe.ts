/** Probes one worker CLI: where it is, its version, and the models it lists. Spawns at most twice. */
import type { WorkerAdapter } from "../adapters/types.ts";
import { spawnProcess } from "../sandbox/spawn.ts";
import { type EnvReader, locateBinary } from "./locate.ts";
import type { CliInfo } from "./types.ts";
import { compareVersions, firstVersion } from "./version.ts";

/** A CLI that takes longer than this to print its version is reported, not waited on. */
export const PROBE_TIMEOUT_MS = 8_000;
/** Model lists are short; anything larger is a CLI printing something else. */
const MAX_PROBE_OUTPUT = 256_000;

export interface RunResult {
  exitCode: number | null;
  stdout: string;
  stderr: string;
  timedOut: boolean;
}

/** The process seam: tests count or fake the spawns here. */
export type ProbeRunner = (argv: string[], env: Record<string, string>) => Promise<RunResult>;

export const spawnRunner: ProbeRunner = async (argv, env) => {
  const r = await spawnProcess(argv, { env, timeoutMs: PROBE_TIMEOUT_MS, maxOutputChars: MAX_PROBE_OUTPUT });
  return {
    exitCode: r.exitCode,
    stdout: r.stdout,
    stderr: r.stderr + (r.spawnError ?? ""),
    timedOut: r.timedOut,
  };
};

/** What a probed CLI sees: enough to find its own config, and no credentials. */
function probeEnv(env: EnvReader): Record<string, string> {
  const out: Record<string, string> = { NO_COLOR: "1", CI: "1", TERM: "dumb" };
  for (const name of ["PATH", "HOME", "LANG", "XDG_CONFIG_HOME", "XDG_DATA_HOME"]) {
    const value = env(name);
    if (value) out[name] = value;
  }
  return out;
}

/** What a probe reads of a CLI: a record (adapters/clis/) or an adapter has both. */
export type Probed = Pick<WorkerAdapter, "defaultBinary" | "detect">;

export async function probeCli(
  name: string,
  adapter: Probed,
  options: { env: EnvReader; run?: ProbeRunner; profileBinary?: string },
): Promise<CliInfo> {
  const run = options.run ?? spawnRunner;
  const info = adapter.detect ?? {};
  const located = locateBinary(name, adapter, options);
  const base: CliInfo = {
    adapter: name,
    installed: located.binary !== null,
    binary: located.binary,
    foundVia: located.foundVia,
    version: null,
    minimumVersion: info.minimumVersion ?? null,
    versionOk: null,
    models: [],
    modelsSource: "none",
  };
  if (!located.binary) return { ...base, error: `${located.wanted} not found` };
  const env = probeEnv(options.env);
  if (info.versionArgs) {
    const r = await run([located.binary, ...info.versionArgs], env);
    const text = r.stdout || r.stderr;
    base.version = r.exitCode === 0 || text ? (info.parseVersion ?? firstVersion)(text) : null;
    if (r.exitCode !== 0 && !base.version) base.error = `version check exited ${r.exitCode}`;
    if (base.version && base.minimumVersion) {
      const cmp = compareVersions(base.version, base.minimumVersion);
      base.versionOk = cmp === null ? null : cmp >= 0;
    }
  }
  if (info.modelListArgs && info.parseModelList) {
    const r = await run([located.binary, ...info.modelListArgs], env);
    if (r.exitCode === 0) {
      base.models = info.parseModelList(r.stdout).map((id) => ({ id }));
      base.modelsSource = "cli";
    } else {
      base.error = `model list exited ${r.exitCode}${r.timedOut ? " (timed out)" : ""}`;
    }
  }
  return base;
}
