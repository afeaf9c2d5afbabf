/**
 * The rules of a job's graph that no single task can check: unique ids, `after` naming known tasks, no cycle,
 * a reviewer's target a builder, and builders that may run at once owning disjoint paths. Pure: the loader
 * (graphs/load.ts) turns the issues into one refusal with the line:col of each.
 */
import { argvFiles } from "../verify/locked.ts";
import type { ErrorCode } from "../errors.ts";
import type { JobTask } from "../schemas/job/task.ts";

export interface GraphIssue {
  code: Extract<ErrorCode, "JOB_INVALID" | "JOB_CYCLE" | "OWNERSHIP_OVERLAP">;
  /** Where in the job file: `["tasks", 2, "after", 0]`. */
  path: (string | number)[];
  message: string;
}

type Task =
  & Pick<JobTask, "id" | "role" | "after">
  & Partial<Pick<JobTask, "ownership" | "reviewOf" | "reviewBase">>;

/** True when `path` is the entry itself or lies under it (an entry is a file or a directory prefix). */
export function owns(entry: string, path: string): boolean {
  const prefix = entry.replace(/\/$/, "");
  return path === prefix || path.startsWith(`${prefix}/`);
}

/** Two entries overlap when one owns the other. */
export function overlaps(a: string, b: string): boolean {
  return owns(a, b.replace(/\/$/, "")) || owns(b, a.replace(/\/$/, ""));
}

/** The first cycle through `after`, as ids (`["a", "b", "a"]`), or null. Unknown ids are ignored. */
export function findCycle(tasks: readonly Task[]): string[] | null {
  const byId = new Map(tasks.map((t) => [t.id, t]));
  const state = new Map<string, "open" | "done">();
  const stack: string[] = [];
  const visit = (id: string): string[] | null => {
    if (state.get(id) === "done") return null;
    if (state.get(id) === "open") return [...stack.slice(stack.indexOf(id)), id];
    state.set(id, "open");
    stack.push(id);
    for (const next of byId.get(id)?.after ?? []) {
      if (!byId.has(next)) continue;
      const cycle = visit(next);
      if (cycle) return cycle;
    }
    stack.pop();
    state.set(id, "done");
    return null;
  };
  for (const t of tasks) {
    const cycle = visit(t.id);
    if (cycle) return cycle;
  }
  return null;
}

/** Every task's transitive predecessors (the graph must be acyclic). */
export function ancestors(tasks: readonly Task[]): Map<string, Set<string>> {
  const byId = new Map(tasks.map((t) => [t.id, t]));
  const out = new Map<string, Set<string>>();
  const of = (id: string): Set<string> => {
    const known = out.get(id);
    if (known) return known;
    const set = new Set<string>();
    out.set(id, set);
    for (const p of byId.get(id)?.after ?? []) {
      if (!byId.has(p)) continue;
      set.add(p);
      for (const q of of(p)) set.add(q);
    }
    return set;
  };
  for (const t of tasks) of(t.id);
  return out;
}

/** The tasks in an order where each comes after everything in its `after` (the job's order otherwise). */
export function topological<T extends Task>(tasks: readonly T[]): T[] {
  const done = new Set<string>();
  const out: T[] = [];
  while (out.length < tasks.length) {
    const next = tasks.find((t) => !done.has(t.id) && t.after.every((a) => done.has(a)));
    if (!next) break; // a cycle: validation refuses one before anything runs
    done.add(next.id);
    out.push(next);
  }
  return out;
}

function referenceIssues(tasks: readonly Task[]): GraphIssue[] {
  const issues: GraphIssue[] = [];
  const first = new Map<string, number>();
  tasks.forEach((t, i) => {
    if (first.has(t.id)) {
      issues.push({
        code: "JOB_INVALID",
        path: ["tasks", i, "id"],
        message: `"${t.id}" is already the id of task ${first.get(t.id)}`,
      });
    } else first.set(t.id, i);
  });
  tasks.forEach((t, i) => {
    t.after.forEach((id, k) => {
      const message = id === t.id
        ? `"${id}" cannot wait for itself`
        : !first.has(id)
        ? `"${id}" is not a task of this job`
        : null;
      if (message) issues.push({ code: "JOB_INVALID", path: ["tasks", i, "after", k], message });
    });
    const builder = t.reviewBase === undefined
      ? undefined
      : t.after.find((id) => tasks[first.get(id) ?? -1]?.role === "builder");
    if (builder !== undefined) {
      issues.push({
        code: "JOB_INVALID",
        path: ["tasks", i, "reviewBase"],
        message: `a reviewer of a range reviews no builder, and "${builder}" in its after is one: ` +
          "give the builder a reviewer of its own",
      });
    }
    if (t.reviewOf !== undefined && first.has(t.reviewOf)) {
      const target = tasks[first.get(t.reviewOf)!];
      if (target.role !== "builder") {
        issues.push({
          code: "JOB_INVALID",
          path: ["tasks", i, "reviewOf"],
          message: `"${t.reviewOf}" is a ${target.role}; a reviewer reviews a builder`,
        });
      }
    }
  });
  return issues;
}

function overlapIssues(tasks: readonly Task[]): GraphIssue[] {
  const issues: GraphIssue[] = [];
  const before = ancestors(tasks);
  const builders = tasks.map((t, i) => ({ t, i })).filter(({ t }) => t.role === "builder");
  for (let b = 0; b < builders.length; b++) {
    for (let a = 0; a < b; a++) {
      const [x, y] = [builders[a].t, builders[b].t];
      if (before.get(x.id)?.has(y.id) || before.get(y.id)?.has(x.id)) continue;
      (y.ownership ?? []).forEach((entry, k) => {
        const other = (x.ownership ?? []).find((e) => overlaps(e, entry));
        if (other === undefined) return;
        issues.push({
          code: "OWNERSHIP_OVERLAP",
          path: ["tasks", builders[b].i, "ownership", k],
          message: `"${entry}" overlaps "${other}" of builder "${x.id}", and neither waits for the other: ` +
            `give them disjoint paths or order them with after`,
        });
      });
    }
  }
  return issues;
}

/** Every problem of the graph; empty when it may run. */
export function validateGraph(tasks: readonly Task[]): GraphIssue[] {
  const issues = referenceIssues(tasks);
  const cycle = findCycle(tasks);
  if (cycle) {
    const i = tasks.findIndex((t) => t.id === cycle[0]);
    issues.push({
      code: "JOB_CYCLE",
      path: ["tasks", i, "after"],
      message: `the tasks wait for each other in a cycle: ${cycle.join(" -> ")}`,
    });
    return issues; // ordering is undefined in a cycle, so overlap cannot be judged
  }
  return [...issues, ...overlapIssues(tasks)];
}

/**
 * Each `reviewBase` side that names no commit of the repository (`known` holds the ones that do), located at
 * its task's `reviewBase`.
 */
export function reviewBaseIssues(tasks: readonly Task[], known: ReadonlySet<string>): GraphIssue[] {
  const issues: GraphIssue[] = [];
  tasks.forEach((t, i) => {
    if (t.reviewBase === undefined) return;
    for (const rev of t.reviewBase.split("..")) {
      if (known.has(rev)) continue;
      issues.push({
        code: "JOB_INVALID",
        path: ["tasks", i, "reviewBase"],
        message: `"${rev}" does not name a commit of the repository`,
      });
    }
  });
  return issues;
}

/**
 * A builder's check that names a file the builder owns (`sh api/check.sh`, `grep -q x api/x.ts` with
 * ownership `api`): spot locks every repository file a check names (verify/locked.ts), so the builder could
 * never change it and the task would fail at verification. Refused up front instead, naming the check, the
 * file and the task, and what to write instead. `tree` is the repository's files at its HEAD.
 */
export function ownedCheckFiles(
  tasks: readonly (Task & Partial<Pick<JobTask, "checks">>)[],
  tree: ReadonlySet<string>,
): GraphIssue[] {
  const issues: GraphIssue[] = [];
  tasks.forEach((t, i) => {
    if (t.role !== "builder") return;
    (t.checks ?? []).forEach((c, j) => {
      c.argv.forEach((item, k) => {
        const [file] = argvFiles([[item]], tree);
        if (file === undefined || !(t.ownership ?? []).some((o) => owns(o, file))) return;
        issues.push({
          code: "JOB_INVALID",
          path: ["tasks", i, "checks", j, "argv", k],
          message: ownedCheckMessage(t.id, { id: c.id, argv: c.argv }, file),
        });
      });
    });
  });
  return issues;
}

function ownedCheckMessage(
  task: string,
  check: { id?: string; argv: readonly string[] },
  file: string,
): string {
  const dir = file.includes("/") ? file.slice(0, file.lastIndexOf("/")) : ".";
  const grep = (check.argv[0].split("/").pop() ?? "") === "grep";
  const instead = grep
    ? `grep the directory instead (grep -r ... ${dir}), which is not locked`
    : "check it with a command that names no file the builder edits (a test outside its ownership)";
  return `check "${check.id ?? "?"}" of builder "${task}" (${
    check.argv.join(" ")
  }) names "${file}", a file ` +
    `builder "${task}" owns; spot locks every repository file a check names, so "${task}" could not ` +
    `change it and would fail at verification: ${instead}, or move "${file}" out of "${task}"'s ownership`;
}
