/**
 * Where the pinned worker CLIs live (`deno task workers` installs them into
 * the git-ignored `.workers/`), and the rule for a CLI that is missing: a
 * loud failure in CI, an ignored test with a clear message on a machine
 * that never ran the installer.
 */
import { join } from "node:path";
import { ROOT } from "../helpers.ts";

export const WORKERS_DIR = join(ROOT, ".workers");

/** Each CLI's binary inside `.workers/`. */
export const WORKER_BINARIES: Record<string, string> = {
  pi: "node_modules/.bin/pi",
  opencode: "node_modules/opencode-linux-x64/bin/opencode",
  codex: "node_modules/.bin/codex",
  claude: "node_modules/.bin/claude",
  gemini: "node_modules/.bin/gemini",
  qwen: "node_modules/.bin/qwen",
  kilo: "node_modules/.bin/kilo",
};

export type Availability = { binary: string } | { ignore: true; reason: string } | { fail: string };

function exists(path: string): boolean {
  try {
    Deno.statSync(path);
    return true;
  } catch {
    return false;
  }
}

/** Whether this CLI's conformance tests run, are ignored (local, never installed) or must fail (CI). */
export function availability(cli: string): Availability {
  const binary = join(WORKERS_DIR, WORKER_BINARIES[cli]);
  if (exists(binary)) return { binary };
  const why = `${cli} is not installed at ${binary}: run \`deno task workers\``;
  if (Deno.env.get("CI") || exists(WORKERS_DIR)) return { fail: why };
  return { ignore: true, reason: why };
}

/** A profile that runs the real pi CLI against the scripted model server at `serverUrl`, keyed by `keyEnv`. */
export function scriptedPiProfile(
  serverUrl: string,
  binary: string,
  keyEnv: string,
): Record<string, unknown> {
  return {
    adapter: "pi",
    provider: "scripted",
    model: "scripted-model",
    apiKeyEnv: keyEnv,
    baseUrl: `${serverUrl}/v1`,
    providerType: "openai-completions",
    binary,
    maxRetries: 1,
  };
}
