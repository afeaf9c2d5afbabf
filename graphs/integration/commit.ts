/**
 * Commit mode's one change to the user's repository: the source branch fast-forwarded from the job's base
 * HEAD to the last commit of the checked landing. `<job>/integration/landing.json` records the landing before
 * the branch moves, so a `job integrate` killed in that moment finds it on the branch and records it instead
 * of landing it twice; a fast-forward that fails puts back the paths it touched (git/land.ts).
 */
import { join } from "../../base/path.ts";
import { SpotError } from "../../errors.ts";
import { gitText } from "../../git/git.ts";
import { fastForward, isAncestor } from "../../git/land.ts";
import type { SpotPaths } from "../../store/paths.ts";
import { readJsonFile, writeJsonAtomic } from "../../store/files.ts";
import type { JobIntegration } from "../store.ts";
import { journalDir } from "./journal.ts";

export interface CommitLanding {
  schemaVersion: 1;
  state: "landing" | "landed" | "failed";
  at: string;
  onto: string;
  tip: string;
  /** What the job records once the branch is at `tip`. */
  integration: JobIntegration;
  reason?: string;
}

const landingFile = (paths: SpotPaths, jobId: string) => join(journalDir(paths, jobId), "landing.json");

export function readCommitLanding(paths: SpotPaths, jobId: string): Promise<CommitLanding | null> {
  return readJsonFile<CommitLanding>(landingFile(paths, jobId));
}

async function writeCommitLanding(paths: SpotPaths, jobId: string, landing: CommitLanding): Promise<void> {
  await Deno.mkdir(journalDir(paths, jobId), { recursive: true, mode: 0o700 });
  await writeJsonAtomic(landingFile(paths, jobId), landing);
}

/** A landing a killed `job integrate` recorded and whose commits are on the branch: its integration, to record. */
export async function finishedLanding(
  paths: SpotPaths,
  jobId: string,
  cwd: string,
): Promise<JobIntegration | null> {
  const landing = await readCommitLanding(paths, jobId);
  if (!landing || landing.state !== "landing") return null;
  const head = await gitText(["rev-parse", "HEAD"], { cwd });
  if (head !== landing.tip && !(await isAncestor(cwd, landing.tip, head))) return null;
  await writeCommitLanding(paths, jobId, { ...landing, state: "landed" });
  return landing.integration;
}

/** Moves the branch to the landing's tip, or throws INTEGRATION_BLOCKED with nothing changed. */
export async function landCommits(
  paths: SpotPaths,
  jobId: string,
  input: { cwd: string; onto: string; tip: string; integration: JobIntegration },
): Promise<void> {
  const record: CommitLanding = {
    schemaVersion: 1,
    state: "landing",
    at: input.integration.at,
    onto: input.onto,
    tip: input.tip,
    integration: input.integration,
  };
  await writeCommitLanding(paths, jobId, record);
  const ff = await fastForward(input.cwd, { from: input.onto, to: input.tip });
  if (!ff.ok) {
    await writeCommitLanding(paths, jobId, { ...record, state: "failed", reason: ff.reason });
    throw new SpotError("INTEGRATION_BLOCKED", `Cannot land job "${jobId}": ${ff.reason}; nothing landed`, {
      details: { jobId, onto: input.onto, tip: input.tip },
    });
  }
  await writeCommitLanding(paths, jobId, { ...record, state: "landed" });
}
