/**
 * A run's dependency dirs as read-only binds for one sandboxed command: each
 * shown inside the tree the command works in (`<cwd>/node_modules`), and at
 * its own path too, because installers bake absolute paths in (a venv's
 * scripts name its python by full path). Where the tree already has the dir
 * (the source checkout after integration), it is left to it. Pure.
 */
import { join } from "../base/path.ts";
import type { DependencyRecord } from "../schemas/dependency_record.ts";

export function dependencyBinds(
  record: DependencyRecord | undefined,
  cwd: string,
  exists: (path: string) => boolean,
): { from: string; to: string }[] {
  const out: { from: string; to: string }[] = [];
  for (const dir of record?.dirs ?? []) {
    const to = join(cwd, dir.path);
    if (to !== dir.from && !exists(to)) out.push({ from: dir.from, to });
    if (!out.some((b) => b.to === dir.from)) out.push({ from: dir.from, to: dir.from });
  }
  return out;
}
