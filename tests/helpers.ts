/** Shared test plumbing: temp repos, an isolated spot environment, and the CLI as a subprocess. */
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { spawnProcess } from "../sandbox/spawn.ts";

export const ROOT = dirname(dirname(fileURLToPath(import.meta.url)));
export const CLI = join(ROOT, "cli.ts");
/** The rights the orchestrator runs with when installed (the same as `deno task install`). */
export const CLI_FLAGS = ["--allow-all"];

export interface SpotEnv {
  dir: string;
  env: Record<string, string>;
  stateDir: string;
  configFile: string;
  /** A bound on each `spot` call (killed after it, with its group), where a hung call must fail, not wait. */
  callTimeoutMs?: number;
}

/** A fresh state/config/cache trio; the config file is written only when given. */
export async function spotEnv(config?: Record<string, unknown>): Promise<SpotEnv> {
  const dir = await Deno.makeTempDir({ prefix: "spot-test-" });
  const stateDir = join(dir, "state");
  const configFile = join(dir, "config.json");
  if (config) await Deno.writeTextFile(configFile, JSON.stringify(config, null, 2));
  const env: Record<string, string> = {
    PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin",
    HOME: Deno.env.get("HOME") ?? dir,
    LANG: "C.UTF-8",
    PI_WORKER_STATE_DIR: stateDir,
    PI_WORKER_CONFIG: configFile,
    PI_WORKER_CACHE_DIR: join(dir, "cache"),
    NO_COLOR: "1",
  };
  const denoDir = Deno.env.get("DENO_DIR");
  if (denoDir) env.DENO_DIR = denoDir;
  return { dir, env, stateDir, configFile };
}

export async function sh(cwd: string, ...argv: string[]): Promise<string> {
  const r = await spawnProcess(argv, {
    cwd,
    env: {
      PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin",
      HOME: cwd,
      GIT_AUTHOR_NAME: "Test",
      GIT_AUTHOR_EMAIL: "test@example.invalid",
      GIT_COMMITTER_NAME: "Test",
      GIT_COMMITTER_EMAIL: "test@example.invalid",
      GIT_CONFIG_NOSYSTEM: "1",
      GIT_CONFIG_GLOBAL: "/dev/null",
    },
  });
  if (r.exitCode !== 0) throw new Error(`${argv.join(" ")} failed (${r.exitCode}): ${r.stderr}`);
  return r.stdout.trim();
}

/** A git repo with the given files committed on branch main. */
export async function makeRepo(files: Record<string, string>, parent?: string): Promise<string> {
  const dir = await Deno.makeTempDir({ prefix: "spot-repo-", dir: parent });
  await sh(dir, "git", "init", "-q", "-b", "main");
  await sh(dir, "git", "config", "user.name", "Test");
  await sh(dir, "git", "config", "user.email", "test@example.invalid");
  for (const [path, content] of Object.entries(files)) {
    await Deno.mkdir(dirname(join(dir, path)), { recursive: true });
    await Deno.writeTextFile(join(dir, path), content);
  }
  await sh(dir, "git", "add", "-A");
  await sh(dir, "git", "commit", "-q", "-m", "initial");
  return dir;
}

export interface CliResult {
  code: number | null;
  json: Record<string, unknown>;
  stdout: string;
  stderr: string;
}

/** Runs `spot <args>` in `cwd` as a real subprocess. */
export async function spot(env: SpotEnv, cwd: string, ...args: string[]): Promise<CliResult> {
  const r = await spawnProcess([
    Deno.execPath(),
    "run",
    "--allow-all",
    "--no-prompt",
    "--config",
    join(ROOT, "deno.json"),
    CLI,
    ...args,
  ], {
    cwd,
    env: env.env,
    timeoutMs: env.callTimeoutMs,
  });
  if (r.timedOut) {
    return {
      code: null,
      json: { timedOut: env.callTimeoutMs },
      stdout: r.stdout,
      stderr: `${r.stderr}\n(timed out)`,
    };
  }
  const text = r.exitCode === 0 ? r.stdout : r.stderr;
  let json: Record<string, unknown> = {};
  try {
    json = JSON.parse(text.trim().split("\n").pop() ?? "{}");
  } catch {
    json = { unparsed: text };
  }
  return { code: r.exitCode, json, stdout: r.stdout, stderr: r.stderr };
}

export function writeJson(path: string, value: unknown): Promise<void> {
  return Deno.writeTextFile(path, JSON.stringify(value, null, 2) + "\n");
}

export function writeEpisode(path: string, lines: Record<string, unknown>[]): Promise<void> {
  return Deno.writeTextFile(path, lines.map((l) => JSON.stringify(l)).join("\n") + "\n");
}
