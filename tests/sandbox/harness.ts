/**
 * The sandbox conformance suite's plumbing. Every case runs the same
 * scripted attack through the real CLI under each backend and asserts from
 * the host. Under `bwrap` the attack must be contained; under `none` (the
 * explicit opt-out) the same assertion must see the escape, which proves the
 * test can fail. Attacks only ever aim at canary paths in the test's temp
 * dir and /tmp, never at real system files, because under `none` they land.
 */
import { join } from "node:path";
import { denoDir } from "../../isolation/step_runner.ts";
import {
  type CliResult,
  makeRepo,
  spot,
  type SpotEnv,
  spotEnv,
  writeEpisode,
  writeJson,
} from "../helpers.ts";

export const BACKENDS = ["bwrap", "none"] as const;
export type Backend = typeof BACKENDS[number];

/** A planted secret file in the fake HOME and what it holds. */
export const HOME_SECRETS = [
  ".ssh/id_ed25519",
  ".aws/credentials",
  ".config/gh/hosts.yml",
  ".npmrc",
  ".netrc",
  ".config/pi-worker/credentials.env",
];

export interface Lab {
  dir: string;
  env: SpotEnv;
  /** spot's HOME: holds planted secrets. */
  home: string;
  /** Unique per lab; found anywhere it should not be, it proves a leak. */
  canary: string;
  repo: string;
  cleanup(): Promise<void>;
}

export interface LabOptions {
  files?: Record<string, string>;
  config?: Record<string, unknown>;
}

/** A temp world: spot's state, a repo, a HOME full of canary secrets, canary env vars. */
export async function lab(options: LabOptions = {}): Promise<Lab> {
  const env = await spotEnv({ selfReview: { enabled: false }, ...options.config });
  const canary = `CANARY_${crypto.randomUUID().replaceAll("-", "")}`;
  const home = join(env.dir, "home");
  for (const rel of HOME_SECRETS) {
    await Deno.mkdir(join(home, rel, ".."), { recursive: true });
    await Deno.writeTextFile(join(home, rel), `secret ${canary}\n`);
  }
  await Deno.writeTextFile(join(home, ".bashrc"), "# user shell\n");
  // spot runs with this HOME; the deno cache stays the real one so the CLI starts offline.
  env.env.HOME = home;
  env.env.DENO_DIR = denoDir((n) => Deno.env.get(n));
  // As if sourced from ~/.zshenv: every shell of the user carries them.
  env.env.SPOT_CANARY_SECRET = canary;
  env.env.OPENAI_API_KEY = `sk-${canary}`;
  const repo = await makeRepo(options.files ?? { "add.ts": "export const add = 1;\n" }, env.dir);
  return {
    dir: env.dir,
    env,
    home,
    canary,
    repo,
    cleanup: () => Deno.remove(env.dir, { recursive: true }).catch(() => {}),
  };
}

export interface Episode {
  runId: string;
  runDir: string;
  worktree: string;
  prepare: CliResult;
  run: CliResult;
  state: Record<string, unknown>;
}

export interface EpisodeOptions {
  lockedPaths?: string[];
  /** Extra `prepare` arguments (a profile instead of replay). */
  prepareArgs?: string[];
}

/** Prepares a run with the given backend whose worker turn plays the steps; returns its id. */
export async function prepareRun(
  l: Lab,
  backend: Backend,
  steps: Record<string, unknown>[],
  options: EpisodeOptions = {},
): Promise<{ runId: string; prepare: CliResult }> {
  const taskFile = join(l.dir, "task.json");
  await writeJson(taskFile, {
    schemaVersion: 1,
    goal: "Probe the sandbox",
    allowedPaths: ["**"],
    lockedPaths: options.lockedPaths ?? [],
    acceptanceCriteria: ["nothing escapes"],
    verification: [{ argv: ["true"], timeoutSeconds: 30 }],
    risk: "low",
  });
  const episodeFile = join(l.dir, "episode.jsonl");
  await writeEpisode(episodeFile, steps);
  const who = options.prepareArgs ?? ["--profile", "replay", "--model", episodeFile];
  const prepare = await spot(l.env, l.repo, "prepare", "--task", taskFile, ...who, "--sandbox", backend);
  if (prepare.code !== 0) throw new Error(`prepare failed under ${backend}: ${prepare.stderr}`);
  return { runId: String(prepare.json.runId), prepare };
}

/** Prepares a run with the given backend and plays the steps as the worker turn. */
export async function episode(
  l: Lab,
  backend: Backend,
  steps: Record<string, unknown>[],
  options: EpisodeOptions = {},
): Promise<Episode> {
  const { runId, prepare } = await prepareRun(l, backend, steps, options);
  const runDir = join(l.env.stateDir, "runs", runId);
  const run = await spot(l.env, l.repo, "run", "--id", runId);
  const state = JSON.parse(await Deno.readTextFile(join(runDir, "state.json")));
  return { runId, runDir, worktree: state.worktreePath, prepare, run, state };
}

/** A replay step that runs a shell script in the worktree. */
export function shStep(script: string): Record<string, unknown> {
  return { op: "exec", argv: ["sh", "-c", script] };
}

export function exists(path: string): boolean {
  try {
    Deno.lstatSync(path);
    return true;
  } catch {
    return false;
  }
}

export function readOr(path: string, fallback = ""): string {
  try {
    return Deno.readTextFileSync(path);
  } catch {
    return fallback;
  }
}

/** Every file under `root` (not following links) whose bytes contain `needle`. */
export function filesContaining(root: string, needle: string): string[] {
  const found: string[] = [];
  const walk = (dir: string) => {
    let entries: Deno.DirEntry[];
    try {
      entries = [...Deno.readDirSync(dir)];
    } catch {
      return;
    }
    for (const e of entries) {
      const path = join(dir, e.name);
      if (e.isDirectory) walk(path);
      else if (e.isFile && readOr(path).includes(needle)) found.push(path);
    }
  };
  walk(root);
  return found;
}

/** Live (non-zombie) processes whose command line contains `marker`. */
export function processesWith(marker: string): number[] {
  const pids: number[] = [];
  for (const e of Deno.readDirSync("/proc")) {
    if (!/^\d+$/.test(e.name) || Number(e.name) === Deno.pid) continue;
    const cmdline = readOr(`/proc/${e.name}/cmdline`).replaceAll("\0", " ");
    if (!cmdline.includes(marker)) continue;
    const stat = readOr(`/proc/${e.name}/stat`);
    if (stat.slice(stat.lastIndexOf(")") + 2, stat.lastIndexOf(")") + 3) !== "Z") pids.push(Number(e.name));
  }
  return pids;
}

/** Ends processes this test started (found by its marker), one pid at a time. */
export function killMarked(marker: string): void {
  for (const pid of processesWith(marker)) {
    try {
      Deno.kill(pid, "SIGKILL");
    } catch {
      // already gone
    }
  }
}

/** Waits up to `ms` for no process to carry the marker; returns the survivors. */
export async function survivorsAfter(marker: string, ms: number): Promise<number[]> {
  const deadline = Date.now() + ms;
  let left = processesWith(marker);
  while (left.length > 0 && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 100));
    left = processesWith(marker);
  }
  return left;
}

/** The one assertion every case makes: contained under bwrap, escaped under none. */
export function expectEscape(backend: Backend, escaped: boolean, what: string): void {
  if (backend === "bwrap" && escaped) throw new Error(`bwrap let it through: ${what}`);
  if (backend === "none" && !escaped) {
    throw new Error(`under none the attack should have landed (else the test cannot fail): ${what}`);
  }
}

/** Everything the worker's tools printed in the turn (the replay worker echoes command output). */
export function toolText(ep: Episode): string {
  const out: string[] = [];
  for (const line of readOr(join(ep.runDir, "worker-stream.jsonl")).split("\n")) {
    if (!line.includes('"tool_execution_end"')) continue;
    const event = JSON.parse(line) as { result: { content: { text: string }[] } };
    out.push(...event.result.content.map((c) => c.text));
  }
  return out.join("\n");
}

/** The last line every attack script prints, so a script that never ran cannot pass. */
export const SCRIPT_END = "SCRIPT_END_OK";

/** The env var scripted providers' keys travel in. */
export const PROVIDER_KEY_ENV = "SPOT_TEST_PROVIDER_KEY";

/**
 * A lab whose `fakecli` profile runs `script` (a Deno program) as a pi-adapter worker CLI against a
 * provider at `upstream`, with a fresh real key in the profile's key variable.
 */
export async function fakeCliLab(
  script: string,
  upstream: string,
  options: LabOptions = {},
): Promise<{ lab: Lab; realKey: string }> {
  const l = await lab(options);
  const cliDir = join(l.dir, "fake-cli");
  await Deno.mkdir(cliDir);
  const binary = join(cliDir, "fake-cli");
  await Deno.writeTextFile(join(cliDir, "fake_cli.ts"), script);
  await Deno.writeTextFile(
    binary,
    `#!/bin/sh\nexec deno run -A --no-config --no-lock "$(dirname "$0")/fake_cli.ts"\n`,
  );
  await Deno.chmod(binary, 0o755);
  const config = JSON.parse(await Deno.readTextFile(l.env.configFile));
  config.profiles = {
    ...config.profiles,
    fakecli: {
      adapter: "pi",
      provider: "scripted",
      model: "m",
      apiKeyEnv: PROVIDER_KEY_ENV,
      baseUrl: `${upstream}/v1`,
      binary,
    },
  };
  await writeJson(l.env.configFile, config);
  const realKey = `sk-live-${crypto.randomUUID()}`;
  l.env.env[PROVIDER_KEY_ENV] = realKey;
  return { lab: l, realKey };
}
