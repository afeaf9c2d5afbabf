/**
 * Where each task of a job goes on the page: its layer is the length of the longest `after` chain that leads
 * to it, so every edge points to a later column. Pure. A job was checked for cycles when it was accepted; a
 * hand-edited `job.json` that loops anyway still lays out (the loop is cut where it is found).
 */

export interface Node {
  id: string;
  after: readonly string[];
}

/** Each task's depth: 0 without `after`, else one more than its deepest predecessor in the job. */
export function depths(tasks: readonly Node[]): Map<string, number> {
  const byId = new Map(tasks.map((t) => [t.id, t]));
  const depth = new Map<string, number>();
  const visiting = new Set<string>();
  const visit = (id: string): number => {
    const known = depth.get(id);
    if (known !== undefined) return known;
    if (visiting.has(id)) return 0;
    visiting.add(id);
    let d = 0;
    for (const p of byId.get(id)?.after ?? []) if (byId.has(p)) d = Math.max(d, visit(p) + 1);
    visiting.delete(id);
    depth.set(id, d);
    return d;
  };
  for (const t of tasks) visit(t.id);
  return depth;
}

/** The tasks in columns by depth, each column in the job's order. */
export function layers<T extends Node>(tasks: readonly T[]): T[][] {
  const depth = depths(tasks);
  const out: T[][] = [];
  for (const t of tasks) (out[depth.get(t.id)!] ??= []).push(t);
  return out.filter((column) => column !== undefined);
}
