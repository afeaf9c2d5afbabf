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
  const read = async (key: string) =>
    (await git(["config", "--get", key], { cwd, allowFailure: true, userConfig: true })).stdout.trim();
  // Both reads at once: each is a git process, and prepare waits on them.
  const [name, email] = await Promise.all([
    Deno.env.get("GIT_AUTHOR_NAME") ?? read("user.name"),
    Deno.env.get("GIT_AUTHOR_EMAIL") ?? read("user.email"),
  ]);
  return { name: name || "spot", email: email || "spot@localhost" };
}
