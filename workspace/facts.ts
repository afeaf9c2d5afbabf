/** The facts the dependency plan is decided from, read from the base revision and the source checkout. */
import { join } from "../base/path.ts";
import { git } from "../git/git.ts";
import { listTree } from "../git/tree_list.ts";
import { which } from "../sandbox/which.ts";
import { type DependencyFacts, ECOSYSTEMS } from "./plan.ts";

const LOCKFILES = ECOSYSTEMS.flatMap((e) => [...e.rules.flatMap((r) => r.lockfiles), ...e.reuseOnly]);
const DIRS = ECOSYSTEMS.flatMap((e) => e.dirs);
const TOOLS = [...new Set(ECOSYSTEMS.flatMap((e) => e.rules.map((r) => r.tool)))];

async function isIgnored(source: string, path: string): Promise<boolean> {
  const r = await git(["check-ignore", "-q", "--", path], { cwd: source, allowFailure: true });
  return r.exitCode === 0;
}

/** Facts about `revision` of the checkout at `source`, and the install tools on `pathVar`. */
export async function dependencyFacts(
  source: string,
  revision: string,
  pathVar: string,
): Promise<DependencyFacts> {
  const tree = await listTree(source, revision);
  const baseLockfiles: Record<string, string> = {};
  const workingLockfiles: Record<string, string> = {};
  for (const name of LOCKFILES) {
    const entry = tree.get(name);
    if (!entry) continue;
    // Blob ids, not text: bun.lockb is binary, and git's own hashing matches what a commit would hold.
    baseLockfiles[name] = entry.oid;
    const working = await git(["hash-object", "--", name], { cwd: source, allowFailure: true });
    if (working.exitCode === 0) workingLockfiles[name] = working.stdout.trim();
  }
  const sourceDirs: DependencyFacts["sourceDirs"] = {};
  for (const dir of DIRS) {
    const info = await Deno.lstat(join(source, dir)).catch(() => null);
    if (info?.isDirectory) sourceDirs[dir] = { ignored: await isIgnored(source, dir) };
  }
  const tools: Record<string, boolean> = {};
  for (const tool of TOOLS) tools[tool] = which(tool, pathVar) !== null;
  return { baseLockfiles, workingLockfiles, sourceDirs, yarnBerry: tree.has(".yarnrc.yml"), tools };
}
