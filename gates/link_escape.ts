/**
 * Which symbolic links of a tree lead outside it. A link is followed the way the kernel follows it, one
 * component at a time, through every other link of the tree, so a chain (`a -> b`, `b -> ../..`), a link to
 * a directory, and `..` after a linked directory (`x -> d/..` where `d -> sub/deep`) all resolve to where
 * they really go, not to where the text seems to point. An absolute target always escapes: in the worker's
 * worktree it names the user's checkout or the host, never the worktree. A target that is not there yet
 * counts too: writing through a dangling link creates the file where it points. Pure.
 */

/** Linux gives up after 40 links in one lookup (ELOOP); spot follows at least as many, then refuses. */
export const MAX_LINK_HOPS = 40;

export type EscapeReason = "absolute" | "leaves the tree" | "too many links";

export interface LinkEscape {
  /** The link, relative to the tree's root. */
  path: string;
  /** What the link says. */
  target: string;
  reason: EscapeReason;
}

const parts = (path: string) => path.split("/").filter((p) => p !== "" && p !== ".");

/** Where `target`, read in directory `dir` (components from the root), leads; or why it escapes. */
function resolve(links: ReadonlyMap<string, string>, dir: string[], target: string): EscapeReason | null {
  if (target.startsWith("/")) return "absolute";
  const at = [...dir];
  const todo = parts(target).reverse();
  let hops = 0;
  while (todo.length > 0) {
    const part = todo.pop()!;
    if (part === "..") {
      if (at.length === 0) return "leaves the tree";
      at.pop();
      continue;
    }
    at.push(part);
    const next = links.get(at.join("/"));
    if (next === undefined) continue;
    if (++hops > MAX_LINK_HOPS) return "too many links";
    if (next.startsWith("/")) return "absolute";
    at.pop();
    todo.push(...parts(next).reverse());
  }
  return null;
}

/** Every link in `links` (path -> target, paths relative to the root) that leads outside the root. */
export function escapingLinks(links: ReadonlyMap<string, string>): LinkEscape[] {
  const out: LinkEscape[] = [];
  for (const [path, target] of links) {
    const dir = parts(path).slice(0, -1);
    const reason = target.startsWith("/") ? "absolute" : resolve(links, dir, target);
    if (reason) out.push({ path, target, reason });
  }
  return out.sort((a, b) => a.path < b.path ? -1 : a.path > b.path ? 1 : 0);
}
