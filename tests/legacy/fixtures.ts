/**
 * The original pi-worker's files, as its users have them: a config written for it, and run directories it
 * left in the state directory (tests/fixtures/legacy/).
 */
import { join } from "node:path";
import { ROOT, sh } from "../helpers.ts";

export const LEGACY_DIR = join(ROOT, "tests", "fixtures", "legacy");
export const LEGACY_CONFIG = join(LEGACY_DIR, "config.json");
/** An integrated run with its metrics, and one left in review with only pi's event stream for usage. */
export const LEGACY_RUNS = ["pw-20260714-fix-add", "pw-20260715-readme"] as const;

/** Copies the original's run directories into `runsDir`, as if it had written them there. */
export async function placeLegacyRuns(runsDir: string): Promise<void> {
  for (const id of LEGACY_RUNS) {
    const from = join(LEGACY_DIR, "runs", id);
    await Deno.mkdir(join(runsDir, id), { recursive: true });
    for await (const entry of Deno.readDir(from)) {
      await Deno.copyFile(join(from, entry.name), join(runsDir, id, entry.name));
    }
  }
}

/** Every file of a run directory with its bytes, to show nothing was changed. */
export async function snapshotDir(dir: string): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for await (const entry of Deno.readDir(dir)) {
    out[entry.name] = await Deno.readTextFile(join(dir, entry.name));
  }
  return out;
}

/** A contract for the demo repo with every key the original required and none it lacked (no lockedPaths). */
export async function originalContract(repo: string, runId: string) {
  return {
    schemaVersion: 1,
    runId,
    repositoryRoot: await sh(repo, "git", "rev-parse", "--show-toplevel"),
    baseRevision: await sh(repo, "git", "rev-parse", "HEAD"),
    goal: "Fix add() so that it returns the sum of its two arguments",
    allowedPaths: ["add.ts"],
    forbiddenPaths: ["add_test.ts"],
    constraints: ["Keep the function signature"],
    acceptanceCriteria: ["add(2, 3) returns 5"],
    verification: [{
      argv: ["deno", "test", "--no-config", "--no-lock", "add_test.ts"],
      timeoutSeconds: 120,
      env: { CI: "1" },
    }],
    requiredCapabilities: ["text", "code"],
    risk: "low",
  };
}
