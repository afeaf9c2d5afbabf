/**
 * A contract as a run uses it: read and checked, its repository the git
 * toplevel, its base revision HEAD, and a run id generated when it has none.
 */
import { resolve } from "../base/path.ts";
import { SpotError } from "../errors.ts";
import { toplevelAndHead } from "../git/repo.ts";
import type { ResolvedContract } from "../schemas/task_contract.ts";
import type { SpotContext } from "../store/context.ts";
import { readContract } from "./contract_load.ts";

export function generateRunId(now: string): string {
  const stamp = now.replace(/[-:]/g, "").replace(/\..*$/, "").replace("T", "-");
  return `run-${stamp}-${crypto.randomUUID().slice(0, 6)}`;
}

/** A `repositoryRoot` that is not there is named as such, not as "not a git repository". */
export function requireDirectory(root: string): void {
  let info: Deno.FileInfo;
  try {
    info = Deno.statSync(root);
  } catch (error) {
    const why = error instanceof Deno.errors.NotFound ? "it does not exist" : (error as Error).message;
    throw new SpotError("REPO_NOT_FOUND", `Cannot use repositoryRoot "${root}": ${why}`, {
      details: { repositoryRoot: root, hint: "set repositoryRoot to the checkout's path, or leave it out" },
    });
  }
  if (!info.isDirectory) {
    throw new SpotError("REPO_NOT_FOUND", `Cannot use repositoryRoot "${root}": it is not a directory`, {
      details: { repositoryRoot: root, hint: "set repositoryRoot to the checkout's path, or leave it out" },
    });
  }
}

/** `runId` names the run when the contract does not (an agent reserves its run id before prepare). */
export async function resolveContract(
  ctx: SpotContext,
  taskFile: string,
  runId?: string,
): Promise<ResolvedContract> {
  const task = await readContract(resolve(ctx.cwd, taskFile), ctx.config);
  if (task.repositoryRoot) requireDirectory(task.repositoryRoot);
  const { root, head } = await toplevelAndHead(task.repositoryRoot ?? ctx.cwd);
  if (task.repositoryRoot && resolve(task.repositoryRoot) !== root) {
    throw new SpotError(
      "CONTRACT_INVALID",
      `Cannot use repositoryRoot "${task.repositoryRoot}": the git toplevel there is "${root}"`,
    );
  }
  if (task.baseRevision && task.baseRevision !== head) {
    throw new SpotError(
      "BASE_REVISION_MISMATCH",
      `Cannot prepare: base revision ${task.baseRevision.slice(0, 12)} does not match HEAD ${
        head.slice(0, 12)
      }`,
      { details: { baseRevision: task.baseRevision, head } },
    );
  }
  return {
    ...task,
    runId: task.runId ?? runId ?? generateRunId(ctx.now()),
    repositoryRoot: root,
    baseRevision: head,
  };
}
