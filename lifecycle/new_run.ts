/** A run's first state, from the facts prepare gathered. Pure. */
import { join } from "../base/path.ts";
import type { ProfileChoice } from "../routing/select_profile.ts";
import type { Caller, RunState, SourceFingerprint } from "../schemas/run_state.ts";
import type { SandboxDetails, SandboxLevel } from "../schemas/sandbox_record.ts";
import type { ResolvedContract } from "../schemas/task_contract.ts";

export interface NewRunFacts {
  task: ResolvedContract;
  choice: ProfileChoice;
  /** The model to run (for replay: the episode's absolute path). */
  model: string;
  caller: Caller;
  sandbox: { level: SandboxLevel; details: SandboxDetails };
  fingerprint: SourceFingerprint;
  identity: RunState["identity"];
  worktreesDir: string;
  at: string;
}

export function newRunState(facts: NewRunFacts): RunState {
  const { task, choice, model, caller, fingerprint, identity, at } = facts;
  const runId = task.runId;
  return {
    schemaVersion: 1,
    runId,
    status: "prepared",
    createdAt: at,
    updatedAt: at,
    caller,
    sourceRoot: task.repositoryRoot,
    sourceHead: fingerprint.head,
    sourceBranch: fingerprint.branch,
    sourceFingerprint: fingerprint,
    sourceDirty: fingerprint.dirty,
    worktreePath: join(facts.worktreesDir, runId),
    workerBranch: `pi-worker/${runId}`,
    baseRevision: task.baseRevision,
    workerBaseRevision: task.baseRevision,
    snapshotCommit: null,
    worktreeReady: false,
    profile: choice.name,
    adapter: choice.profile.adapter,
    provider: choice.profile.provider,
    model,
    sandbox: facts.sandbox.level,
    sandboxDetails: facts.sandbox.details,
    identity,
    revisionRound: 0,
    fallbackUsed: false,
    workerUsage: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
    workerCostUsd: 0,
    workerDurationMs: 0,
    workerAttempts: 0,
    transitions: [{
      from: null,
      to: "prepared",
      at,
      reason: `admitted (profile ${choice.name} via ${choice.routing.profileSource})`,
    }],
    failure: null,
    interruption: null,
    lastVerificationPassed: null,
    diffSha256: null,
    diffBytes: null,
    selfReviewSkipped: null,
    selfReviewSkipReason: null,
    implementationCommit: null,
    integratedCommit: null,
    blockedReason: null,
    recovery: null,
    lastReportAt: null,
    cleanedAt: null,
  };
}
