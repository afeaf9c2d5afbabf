/**
 * Read roots a worker asks for beyond its own install: files its command line names, and the paths its
 * profile lists in `readRoots`. Both are checked against HOME and credential files before any policy
 * holds them.
 */
import { isAbsolute, join } from "../base/path.ts";
import { SpotError } from "../errors.ts";
import { realPathOrNull, within } from "../sandbox/host_paths.ts";
import { holdsCredentials } from "../sandbox/tool_roots.ts";
import type { HostFacts } from "./host_facts.ts";

/** Files the plan names are shown wherever they are; a directory under HOME is never shown whole. */
export function vetPlanPaths(paths: string[], home: string | null): string[] {
  return paths.filter((p) => !home || !within(p, home) || Deno.lstatSync(p).isFile);
}

/**
 * The read roots a profile names (`readRoots`, for a CLI installed under HOME): each must exist, hold no
 * credential file and show none of the paths kept out; one that fails is refused, never narrowed silently.
 */
export function vetProfileRoots(roots: readonly string[] | undefined, host: HostFacts): string[] {
  return (roots ?? []).map((raw) => {
    const path = raw.startsWith("~/") && host.home ? join(host.home, raw.slice(2)) : raw;
    const real = isAbsolute(path) ? realPathOrNull(path) : null;
    const why = !real
      ? "it does not exist (or is not absolute)"
      : holdsCredentials(real)
      ? "it holds a credential file"
      : host.keepOut.some((k) => within(k, real) || (k !== host.home && within(real, k)))
      ? "it would show spot's state, its caches, the checkout or all of HOME"
      : null;
    if (why) {
      throw new SpotError("CONFIG_INVALID", `Cannot show read root "${raw}" to the worker: ${why}`, {
        details: { readRoot: raw },
      });
    }
    return real!;
  });
}
