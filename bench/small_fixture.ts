/**
 * The small loop's set-up, shared by bench/small_loop_bench.ts (the CLI) and bench/mcp_loop_bench.ts (one
 * `spot mcp`): a 3-file repo, an instant replay worker, one `node -e` check, a config with self-review off,
 * and the git floor (bench/git_floor.sh) on the same repo.
 */
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { spawnProcess } from "../sandbox/spawn.ts";
import { makeRepo, sh, writeEpisode, writeJson } from "../tests/helpers.ts";

const here = dirname(fileURLToPath(import.meta.url));
export const CLI = join(here, "..", "cli.ts");
export const DENO_CONFIG = join(here, "..", "deno.json");

export type Verb = "prepare" | "run" | "verify" | "approve" | "integrate";
export const VERBS: Verb[] = ["prepare", "run", "verify", "approve", "integrate"];

export interface SmallFixture {
  dir: string;
  repo: string;
  episode: string;
  taskFile: string;
  env: Record<string, string>;
}

export async function smallFixture(prefix: string): Promise<SmallFixture> {
  const dir = await Deno.makeTempDir({ prefix });
  const repo = await makeRepo({
    "src/sum.js": "export const sum = (a, b) => a - b;\n",
    "test/sum.test.js": "// checked by the contract's node -e\n",
    "README.md": "# small\n",
  }, dir);
  const episode = join(dir, "instant.jsonl");
  await writeEpisode(episode, [{
    op: "write",
    path: "src/sum.js",
    content: "export const sum = (a, b) => a + b;\n",
  }]);
  const taskFile = join(dir, "task.json");
  await writeJson(taskFile, {
    schemaVersion: 1,
    goal: "Make sum add",
    allowedPaths: ["src/**"],
    acceptanceCriteria: ["sum adds"],
    verification: [{
      argv: ["node", "-e", "import('./src/sum.js').then((m) => process.exit(m.sum(2, 3) === 5 ? 0 : 1))"],
      timeoutSeconds: 30,
    }],
    risk: "low",
  });
  const configFile = join(dir, "config.json");
  await writeJson(configFile, { selfReview: { enabled: false } });
  const env: Record<string, string> = {
    ...Deno.env.toObject(),
    PI_WORKER_CONFIG: configFile,
    PI_WORKER_STATE_DIR: join(dir, "state"),
    PI_WORKER_CACHE_DIR: join(dir, "cache"),
    NO_COLOR: "1",
  };
  return { dir, repo, episode, taskFile, env };
}

/** The review a loop approves with, bound to the verified diff. */
export function approval(diffSha256: unknown): Record<string, unknown> {
  return {
    schemaVersion: 1,
    verdict: "approve",
    diffSha256,
    findings: [],
    verificationGaps: [],
    summary: "bench",
  };
}

/** Drops the loop's integrated commit, outside any timing. */
export async function undoIntegration(f: SmallFixture): Promise<void> {
  await sh(f.repo, "git", "reset", "-q", "--hard", "HEAD^");
}

/** One run of the git floor (ms), its commit dropped afterwards. */
export async function floorOnce(f: SmallFixture, i: number): Promise<number> {
  const started = performance.now();
  const r = await spawnProcess(
    [join(here, "git_floor.sh"), f.repo, join(f.dir, `floor-wt-${i}`), `floor-${i}`],
    { env: f.env },
  );
  if (r.exitCode !== 0) throw new Error(`git floor failed: ${r.stderr}`);
  const elapsed = performance.now() - started;
  await undoIntegration(f);
  return elapsed;
}

export { writeJson };
