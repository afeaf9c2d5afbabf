/** A job written the way the job store writes it, without a coordinator: for the dashboard's route tests. */
import { appendEvent, createJob, newJobId, type TaskRecord, updateJob } from "../../graphs/store.ts";
import { Job } from "../../schemas/job/job.ts";
import { resolvePaths, type SpotPaths } from "../../store/paths.ts";

/** A one-scout job in a fresh state dir, not yet created: for the job store's own tests. */
export async function scoutJob() {
  const dir = await Deno.makeTempDir();
  const paths = resolvePaths((n) => n === "PI_WORKER_STATE_DIR" ? dir : n === "HOME" ? dir : undefined);
  const job = {
    ...Job.parse({ approval: "me", tasks: [{ id: "s", role: "scout", task: "look", acceptance: ["seen"] }] }),
    jobId: newJobId(),
    cwd: dir,
  };
  return { dir, paths, job };
}

export interface FixtureJob {
  jobId: string;
  createdAt?: string;
  cwd?: string;
  allowWrites?: boolean;
  /** Each task's id, role, `after`, and optionally its text. */
  tasks: { id: string; role: string; after?: string[]; task?: string }[];
  /** Task records by id (queued when left out), each also logged as a task event. */
  records?: Record<string, TaskRecord>;
  status?: "created" | "running" | "succeeded" | "failed" | "cancelled";
}

export async function writeFixtureJob(paths: SpotPaths, f: FixtureJob): Promise<void> {
  const at = f.createdAt ?? "2025-01-01T00:00:00.000Z";
  const job = Job.parse({
    approval: "the test",
    allowWrites: f.allowWrites ?? false,
    noIntegratedChecksReason: "test",
    tasks: f.tasks.map((t) => ({
      id: t.id,
      role: t.role,
      task: t.task ?? `Do the ${t.id} part`,
      acceptance: [`${t.id} done`],
      after: t.after ?? [],
      ...(t.role === "builder" ? { ownership: [t.id], noChecksReason: "test" } : {}),
    })),
  });
  await createJob(paths, { ...job, jobId: f.jobId, cwd: f.cwd ?? "/tmp/repo" }, at);
  const records = f.records ?? {};
  await updateJob(paths, f.jobId, (_, state) => ({
    state: {
      ...state,
      status: f.status ?? state.status,
      tasks: { ...state.tasks, ...records },
    },
  }));
  for (const [id, r] of Object.entries(records)) {
    await appendEvent(paths, f.jobId, { at, type: "task", id, state: r.state, runId: r.runId });
  }
}
