/** Questions about the user's repository, asked without changing it. */
import { SpotError } from "../errors.ts";
import { git, gitText, type Identity } from "./git.ts";

export async function toplevel(cwd: string): Promise<string> {
  const result = await git(["rev-parse", "--show-toplevel"], { cwd, allowFailure: true });
  if (result.exitCode !== 0) {
    throw new SpotError(
      "NOT_A_REPOSITORY",
      `Cannot delegate from "${cwd}": it is not inside a git repository`,
      {
        details: { hint: "spot needs a git repository; work directly in the parent instead" },
      },
    );
  }
  return result.stdout.trim();
}

export async function headCommit(cwd: string): Promise<string> {
  return await gitText(["rev-parse", "--verify", "HEAD^{commit}"], { cwd });
}

/** The checked-out branch, or null on a detached HEAD. */
export async function currentBranch(cwd: string): Promise<string | null> {
  const result = await git(["symbolic-ref", "--quiet", "--short", "HEAD"], { cwd, allowFailure: true });
  return result.exitCode === 0 ? result.stdout.trim() : null;
}

/** The branch name in `rev-parse --symbolic-full-name HEAD`'s answer: null when detached. */
export function branchOfFullName(name: string): string | null {
  if (name === "HEAD" || name === "") return null;
  return name.startsWith("refs/heads/") ? name.slice("refs/heads/".length) : name;
}

/** HEAD's commit and the checked-out branch (null when detached) in one git call; errors as the two calls'. */
export async function headAndBranch(cwd: string): Promise<{ head: string; branch: string | null }> {
  const r = await git(["rev-parse", "HEAD^{commit}", "--symbolic-full-name", "HEAD"], {
    cwd,
    allowFailure: true,
  });
  const [head, full] = r.stdout.trim().split("\n");
  if (r.exitCode !== 0 || !/^[0-9a-f]{40,64}$/.test(head ?? "") || full === undefined) {
    // An unborn HEAD or a broken repository: the separate calls say which, with their own messages.
    const [h, branch] = await Promise.all([headCommit(cwd), currentBranch(cwd)]);
    return { head: h, branch };
  }
  return { head, branch: branchOfFullName(full) };
}

/** The repository's toplevel and HEAD commit in one git call; errors as toplevel() and headCommit(). */
export async function toplevelAndHead(cwd: string): Promise<{ root: string; head: string }> {
  const r = await git(["rev-parse", "--show-toplevel", "HEAD^{commit}"], { cwd, allowFailure: true });
  const [root, head] = r.stdout.trim().split("\n");
  if (r.exitCode !== 0 || !root || !/^[0-9a-f]{40,64}$/.test(head ?? "")) {
    const top = await toplevel(cwd);
    return { root: top, head: await headCommit(top) };
  }
  return { root, head };
}

const commonDirs = new Map<string, string>();
/** Lookups under way, shared by callers that ask before the first answer (verify asks ahead of its lock). */
const asking = new Map<string, Promise<string>>();

function isDirectory(path: string): boolean {
  try {
    return Deno.statSync(path).isDirectory;
  } catch {
    return false;
  }
}

/**
 * The absolute common git dir of the checkout at `cwd`, asked of git once per process: it is the same for
 * every call of a verb (the worktree lock, the escape snapshot). An answer whose directory is gone is asked
 * again.
 */
export async function gitCommonDir(cwd: string): Promise<string> {
  const known = commonDirs.get(cwd);
  if (known && isDirectory(known)) return known;
  const pending = asking.get(cwd);
  if (pending) return await pending;
  const lookup = gitText(["rev-parse", "--path-format=absolute", "--git-common-dir"], { cwd });
  asking.set(cwd, lookup);
  try {
    const dir = await lookup;
    commonDirs.set(cwd, dir);
    return dir;
  } finally {
    asking.delete(cwd);
  }
}

export async function branchExists(cwd: string, branch: string): Promise<boolean> {
  const result = await git(["rev-parse", "--verify", "--quiet", `refs/heads/${branch}`], {
    cwd,
    allowFailure: true,
  });
  return result.exitCode === 0;
}

/**
 * The identity commits are made with: the user's own, read once at prepare
 * from their config (the one call that reads global config, and only user.*).
 */
export async function userIdentity(cwd: string): Promise<Identity> {
  let name = Deno.env.get("GIT_AUTHOR_NAME");
  let email = Deno.env.get("GIT_AUTHOR_EMAIL");
  if (name === undefined || email === undefined) {
    // One git call for both keys; the last value of a key is the one git itself would use.
    const r = await git(["config", "--get-regexp", "^user\\.(name|email)$"], {
      cwd,
      allowFailure: true,
      userConfig: true,
    });
    const found: Record<string, string> = {};
    for (const line of r.exitCode === 0 ? r.stdout.split("\n") : []) {
      const space = line.indexOf(" ");
      if (space > 0) found[line.slice(0, space).toLowerCase()] = line.slice(space + 1).trim();
    }
    name ??= found["user.name"] ?? "";
    email ??= found["user.email"] ?? "";
  }
  return { name: name || "spot", email: email || "spot@localhost" };
}
