/**
 * Doctor's view of the project's dependencies: what a run prepared here now would get for each ecosystem
 * (reuse, setup and whether its cache is already made, or none and why), without installing anything.
 */
import { git } from "../git/git.ts";
import type { SpotContext } from "../store/context.ts";
import { dependencyOutlook } from "../workspace/provide.ts";
import type { Check } from "./check.ts";

export type Outlook = Awaited<ReturnType<typeof dependencyOutlook>>;

/** The outlook for the checkout holding `ctx.cwd` at HEAD, or null outside a git checkout with a commit. */
export async function outlookHere(ctx: SpotContext): Promise<Outlook | null> {
  const top = await git(["rev-parse", "--show-toplevel"], { cwd: ctx.cwd, allowFailure: true });
  if (top.exitCode !== 0) return null;
  const head = await git(["rev-parse", "--verify", "-q", "HEAD^{commit}"], {
    cwd: ctx.cwd,
    allowFailure: true,
  });
  if (head.exitCode !== 0) return null;
  return await dependencyOutlook(ctx, top.stdout.trim(), head.stdout.trim());
}

/** One line per ecosystem; a warning when one has nothing, since its checks will likely not find their modules. */
export function dependencyCheck(outlook: Outlook | null): Check {
  if (!outlook) return { name: "dependencies", ok: true, detail: "not in a git checkout with a commit" };
  if (outlook.ecosystems.length === 0) {
    return { name: "dependencies", ok: true, detail: "no lockfile, none needed" };
  }
  const lines = outlook.ecosystems.map((e) => {
    const what = e.source === "setup"
      ? `setup \`${e.command}\` (${
        outlook.setup?.madeAt ? `cached ${outlook.setup.madeAt}` : "runs at prepare"
      })`
      : e.source;
    return `${e.ecosystem}: ${what}: ${e.reason}`;
  });
  const none = outlook.ecosystems.filter((e) => e.source === "none");
  return {
    name: "dependencies",
    ok: true,
    warn: none.length > 0,
    detail: lines.join("; "),
    fix: none.length > 0
      ? "install them in the source checkout (reuse), let spot run the lockfile's install (dependencies.setup), " +
        "or list ignored files in .worktreeinclude"
      : undefined,
  };
}
