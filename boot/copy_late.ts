/**
 * The check of a module a command loads from spot's JavaScript copy that its first word's set did not hold
 * (boot/copy.ts): the module and everything it imports as it loads must still match the stamps the build
 * was made from. Loaded only when a command takes such a path (a `--on` run on the fleet, say).
 */
import { COPY_DIR, type CopySet, dropPointer, racyHold, readJson, stampHolds } from "./copy_stamps.ts";

function exists(url: string): boolean {
  try {
    Deno.statSync(new URL(url));
    return true;
  } catch {
    return false;
  }
}

/** The whole build: every module, its stamp and what it imports as it loads (`graph.json`). */
export interface CopyGraphFile extends CopySet {
  code: number[][];
}

/**
 * The hook for modules outside the command's set: the copy's URL once the module's imports hold, null (and
 * the build dropped) when one changed. `checked` holds the modules known to hold and grows with each check.
 */
export function lateHook(
  root: string,
  rootUrl: string,
  copyUrl: string,
  checked: Set<string>,
): (url: string) => Promise<string | null> {
  const build = copyUrl.slice(rootUrl.length + COPY_DIR.length + 1, -1);
  let graph: CopyGraphFile | null = null;
  let index: Map<string, number> | null = null;
  return async (url) => {
    const rel = url.slice(rootUrl.length);
    // A build removed since (boot/copy_build.ts keeps old ones an hour) can no longer serve this process.
    graph ??= readJson<CopyGraphFile>(`${root}/${COPY_DIR}/${build}/graph.json`);
    if (!graph || !exists(copyUrl)) return null;
    index ??= new Map(graph.paths.map((p, i) => [p, i]));
    const start = index.get(rel);
    const stack = start === undefined ? [] : [start];
    const seen = new Set<number>();
    let changed = false;
    while (stack.length > 0 && !changed) {
      const i = stack.pop()!;
      if (seen.has(i) || checked.has(graph.paths[i])) continue;
      seen.add(i);
      changed = !stampHolds(`${root}/${graph.paths[i]}`, graph.stamps, i);
      stack.push(...graph.code[i]);
    }
    // Refused: a module the build does not hold (added since, so reached through a module that changed),
    // or one of those it loads changed since the build.
    if (start === undefined || changed || !await racyHold(root, graph, seen)) {
      dropPointer(root);
      return null;
    }
    for (const i of seen) checked.add(graph.paths[i]);
    return `${copyUrl}${rel.slice(0, -3)}.js`;
  };
}
