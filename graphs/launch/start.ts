/**
 * Where a task's worktree starts: the job's base plus the verified commit of every builder among its
 * transitive `after`, applied in topological order. A builder's verified commit holds only its own change on
 * top of its own start, so a chain (B after A) starts at A's verified commit itself; a task after builders
 * that do not wait for each other starts at a commit spot makes, each further builder's own change merged in
 * file by file (a private index: no worktree, nothing of the user's touched). Two of those changes to one file
 * are TASK_BASE_CONFLICT, with the files, before the task's worker runs. Ownership keeps builders that do not
 * wait for each other to disjoint paths, so a job meets it only when its records were changed behind spot.
 */
import { SpotError } from "../../errors.ts";
import { git, gitText, type Identity } from "../../git/git.ts";
import { tempIndexPath } from "../../git/temp_index.ts";
import type { JobTask } from "../../schemas/job/task.ts";
import type { TaskRecord } from "../store.ts";
import { ancestors, topological } from "../validate.ts";

/** One builder's own change: from the commit it started at to the commit of what spot verified. */
export interface Layer {
  id: string;
  start: string;
  verified: string;
}

/** The builders among a task's transitive `after`, each after the ones it builds on. */
export function buildersBefore(tasks: readonly JobTask[], task: JobTask): JobTask[] {
  const before = ancestors(tasks).get(task.id) ?? new Set<string>();
  return topological(tasks).filter((t) => t.role === "builder" && before.has(t.id));
}

/** Each builder's layer from its record; a succeeded builder without one is a record spot cannot build on. */
export function layersOf(
  builders: readonly JobTask[],
  records: Readonly<Record<string, TaskRecord>>,
): Layer[] {
  return builders.map((b) => {
    const r = records[b.id];
    if (r?.state !== "succeeded" || !r.verifiedCommit || !r.startCommit) {
      throw new SpotError(
        "STATE_INVALID",
        `Cannot start from builder "${b.id}": it has no verified commit on record (it is ${
          r?.state ?? "unknown"
        })`,
        { details: { task: b.id } },
      );
    }
    return { id: b.id, start: r.startCommit, verified: r.verifiedCommit };
  });
}

/** Paths left unmerged in an index. */
async function unmerged(cwd: string, indexFile: string): Promise<string[]> {
  const out = await gitText(["ls-files", "--unmerged", "-z"], { cwd, indexFile });
  const paths = out.split("\0").filter(Boolean).map((line) => line.slice(line.indexOf("\t") + 1));
  return [...new Set(paths)].sort();
}

export interface ComposeOptions {
  /** Where the temporary index goes. */
  scratchDir: string;
  /** Who the commits spot makes are by (asked only when one is made). */
  identity: () => Promise<Identity>;
  /** Names the task in the commits spot makes and in a conflict's message. */
  taskId: string;
  jobId: string;
}

/** The commit a task starts from: `base` with each layer's own change on top, in order. */
export async function composeStart(
  cwd: string,
  base: string,
  layers: readonly Layer[],
  options: ComposeOptions,
): Promise<string> {
  let tip = base;
  for (const layer of layers) {
    // The common case: it was built on exactly what is here already (a chain, or the first of several).
    if (layer.start === tip) {
      tip = layer.verified;
      continue;
    }
    const indexFile = tempIndexPath(options.scratchDir, "start");
    try {
      await git(["read-tree", "-m", "-i", "--aggressive", layer.start, tip, layer.verified], {
        cwd,
        indexFile,
      });
      const files = await unmerged(cwd, indexFile);
      if (files.length) {
        throw new SpotError(
          "TASK_BASE_CONFLICT",
          `Cannot start task "${options.taskId}": builder "${layer.id}"'s change conflicts with the work ` +
            `before it in ${files.join(", ")}`,
          { details: { task: options.taskId, builder: layer.id, files } },
        );
      }
      const tree = await gitText(["write-tree"], { cwd, indexFile });
      tip = await gitText(["commit-tree", tree, "-p", tip, "-F", "-"], {
        cwd,
        identity: await options.identity(),
        stdinText:
          `spot: "${layer.id}"'s verified change, for task "${options.taskId}" of job ${options.jobId}\n`,
      });
    } finally {
      await Deno.remove(indexFile).catch(() => {});
    }
  }
  return tip;
}
