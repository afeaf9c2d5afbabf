/** Finds processes a run left behind, by the private HOME every worker launch of that run had. */

function read(path: string): string | null {
  try {
    return Deno.readTextFileSync(path);
  } catch {
    return null;
  }
}

/** Pids of live processes whose environment holds HOME under `homesDir`. */
export function survivors(homesDir: string): number[] {
  const found: number[] = [];
  for (const entry of Deno.readDirSync("/proc")) {
    if (!/^\d+$/.test(entry.name)) continue;
    const environ = read(`/proc/${entry.name}/environ`);
    if (!environ || !environ.split("\0").some((v) => v.startsWith(`HOME=${homesDir}/`))) continue;
    const stat = read(`/proc/${entry.name}/stat`) ?? "";
    const state = stat.slice(stat.lastIndexOf(")") + 2, stat.lastIndexOf(")") + 3);
    if (state !== "Z") found.push(Number(entry.name));
  }
  return found;
}
