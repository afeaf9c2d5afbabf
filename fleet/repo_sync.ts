/**
 * The repository's state between the origin and the executors, as git bundles in the object store (docs/fleet.md).
 * Each commit a run starts from is uploaded once, as `repo/<root commit>/<commit>`, carrying only what the
 * commits uploaded before it lack (they are its prerequisites, named in its metadata). An executor keeps one bare
 * store per repository and fetches only the bundles of commits it does not have, prerequisites first.
 */
import { dirname, join } from "../base/path.ts";
import { SpotError } from "../errors.ts";
import { hasCommit, objectsDir, readBundleHeader, rootCommit, unbundle, writeBundle } from "../git/bundle.ts";
import { git } from "../git/git.ts";
import { withWorktreeLock } from "../git/worktree_lock.ts";
import type { Queue } from "../queue/types.ts";

/** Earlier uploads considered as a new bundle's base: enough for a busy repository, bounded in git calls. */
const MAX_BASES = 200;
/** A chain of incremental bundles longer than this is a loop, not history. */
const MAX_CHAIN = 10_000;

const objectName = (repoId: string, commit: string) => `repo/${repoId}/${commit}`;

/** Uploads what `commit` needs beyond earlier uploads (nothing when it is there); returns the repository's id. */
export async function uploadCommit(
  queue: Queue,
  repo: string,
  options: { commit: string; scratch: string },
): Promise<string> {
  const id = await rootCommit(repo, options.commit);
  const name = objectName(id, options.commit);
  if (await queue.objects.meta(name)) return id;
  const uploaded = (await queue.objects.list(`repo/${id}/`)).map((n) => n.split("/")[2]).slice(-MAX_BASES);
  // Another run uploaded it since we looked (jobs start their tasks at once, from one commit).
  if (uploaded.includes(options.commit)) return id;
  const have: string[] = [];
  for (const c of uploaded) {
    const r = await git(["merge-base", "--is-ancestor", c, options.commit], {
      cwd: repo,
      allowFailure: true,
    });
    if (r.exitCode === 0) have.push(c);
  }
  const file = join(options.scratch, `${options.commit}.bundle`);
  try {
    await writeBundle(file, {
      objects: [await objectsDir(repo)],
      commit: options.commit,
      have,
      scratch: options.scratch,
    });
    const { prerequisites } = await readBundleHeader(file);
    await queue.objects.put(name, file, { prerequisites: prerequisites.join(" ") });
  } finally {
    await Deno.remove(file).catch(() => {});
  }
  return id;
}

const isStore = (dir: string) => Deno.stat(join(dir, "HEAD")).then(() => true, () => false);

/**
 * The executor's bare store of one repository, made on first use: initialised aside and renamed into place, so
 * an attempt running beside the one that makes it never sees half a repository (its HEAD before its config).
 */
export async function repoStore(cacheRoot: string, repoId: string): Promise<string> {
  const dir = join(cacheRoot, "fleet", "repos", `${repoId}.git`);
  if (await isStore(dir)) return dir;
  const parent = dirname(dir);
  await Deno.mkdir(parent, { recursive: true });
  const aside = await Deno.makeTempDir({ dir: parent, prefix: `.${repoId}.` });
  try {
    await git(["init", "--quiet", "--bare", aside], { cwd: aside });
    for (let i = 0; i < 2 && !(await isStore(dir)); i++) {
      try {
        await Deno.rename(aside, dir);
      } catch (error) {
        // Another attempt put its store there first; or a store an older spot left half made is in the way.
        if (await isStore(dir)) break;
        if (i > 0) throw error;
        await Deno.remove(dir, { recursive: true }).catch(() => {});
      }
    }
  } finally {
    await Deno.remove(aside, { recursive: true }).catch(() => {});
  }
  return dir;
}

/** Makes `commit` present in `store`, fetching the bundles it lacks; returns how many it fetched. */
export async function fetchCommit(
  queue: Queue,
  store: string,
  options: { repoId: string; commit: string; scratch: string; signal?: AbortSignal },
): Promise<number> {
  return await withWorktreeLock(store, async () => {
    const bundles = new Map<string, { file: string; needs: string[] }>();
    const pending = [options.commit];
    // Walk down the prerequisites to commits the store has ...
    while (pending.length) {
      const commit = pending.pop()!;
      if (bundles.has(commit) || await hasCommit(store, commit)) continue;
      if (bundles.size >= MAX_CHAIN) throw new Error(`the bundle chain of ${options.commit} does not end`);
      const file = join(options.scratch, `${commit}.bundle`);
      if (!(await queue.objects.get(objectName(options.repoId, commit), file, { signal: options.signal }))) {
        throw new SpotError(
          "FLEET_TASK_FAILED",
          `Cannot fetch commit ${commit} of repository ${options.repoId}: its bundle is not in the object store`,
          { details: { object: objectName(options.repoId, commit), where: queue.where } },
        );
      }
      const needs = (await readBundleHeader(file)).prerequisites;
      bundles.set(commit, { file, needs });
      pending.push(...needs);
    }
    // ... then add each bundle once what it needs is in.
    const fetched = bundles.size;
    while (bundles.size) {
      const ready = [...bundles].filter(([, b]) => b.needs.every((n) => !bundles.has(n)));
      if (!ready.length) throw new Error(`the bundles of ${options.commit} need each other`);
      for (const [commit, b] of ready) {
        await unbundle(store, b.file);
        await Deno.remove(b.file).catch(() => {});
        bundles.delete(commit);
      }
    }
    return fetched;
  });
}
