/** The resolved contract a run was prepared with. */
import { SpotError } from "../errors.ts";
import type { ResolvedContract } from "../schemas/task_contract.ts";
import type { RunStore } from "./run_store.ts";

export async function loadTask(store: RunStore, runId: string): Promise<ResolvedContract> {
  const task = await store.readJson<ResolvedContract>(runId, "task.json");
  if (!task) {
    throw new SpotError("RUN_NOT_FOUND", `Cannot find the task of run "${runId}": task.json is missing`);
  }
  return task;
}
