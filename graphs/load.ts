/**
 * Reading a job (or one more task) from its JSON text: the schema first (unknown keys refused), then the
 * graph's rules (graphs/validate.ts), every problem with its line:col. Nothing has run when this refuses.
 */
import { lazy } from "../base/lazy.ts";
import { type Issue, SpotError } from "../errors.ts";
import { Job } from "../schemas/job/job.ts";
import { JobTask } from "../schemas/job/task.ts";
import { formatIssuesOf, parseJsonWithSchema } from "../schemas/parse_json.ts";
import { type GraphIssue, ownedCheckFiles, reviewBaseIssues, validateGraph } from "./validate.ts";

/** What the rules that read the repository need of it; left out, those rules are not applied. */
export interface RepoFacts {
  /** Its files at HEAD (a check that runs one a builder owns is refused). */
  tree?: ReadonlySet<string>;
  /** The `reviewBase` revisions that name a commit in it (graphs/launch/review_base.ts). */
  commits?: ReadonlySet<string>;
}

function repoIssues(tasks: readonly JobTask[], repo: RepoFacts): GraphIssue[] {
  return [
    ...ownedCheckFiles(tasks, repo.tree ?? new Set()),
    ...(repo.commits ? reviewBaseIssues(tasks, repo.commits) : []),
  ];
}

type Locate = typeof import("../schemas/locate.ts");
const locate = () => lazy<Locate>("../schemas/locate.ts", import.meta.url);

/** The most specific code among the issues: a cycle or an overlap names itself, anything else is JOB_INVALID. */
function codeOf(issues: GraphIssue[]): GraphIssue["code"] {
  return issues.find((i) => i.code !== "JOB_INVALID")?.code ?? "JOB_INVALID";
}

function pathString(path: (string | number)[]): string {
  return path.map((k, i) => typeof k === "number" ? `[${k}]` : i === 0 ? k : `.${k}`).join("");
}

async function refuse(
  code: GraphIssue["code"],
  what: string,
  file: string,
  issues: (Issue & { code?: string })[],
): Promise<never> {
  throw new SpotError(
    code,
    `Cannot accept ${what} "${file}": ${issues.length} problem(s)\n${await formatIssuesOf(file, issues)}`,
    { details: { file, issues } },
  );
}

/** Graph issues located in `text`; `shift` maps a job path to the file's own (a task file under `add`). */
async function located(
  text: string,
  issues: GraphIssue[],
  shift: (p: (string | number)[]) => (string | number)[] = (p) => p,
): Promise<(Issue & { code: string })[]> {
  const { locatePath } = await locate();
  return issues.map((i) => ({
    code: i.code,
    path: pathString(shift(i.path)) || "(root)",
    message: i.message,
    ...locatePath(text, shift(i.path)),
  }));
}

/**
 * A job file's text, checked whole; `file` names it in messages (`-` for stdin). `repo` may be found from the
 * job that passed the schema (its `cwd`), so the graph's and the repository's problems are reported together.
 */
export async function parseJob(
  text: string,
  file: string,
  repo: RepoFacts | ((job: Job) => Promise<RepoFacts>) = {},
): Promise<Job> {
  const parsed = await parseJsonWithSchema(text, Job);
  if (!parsed.ok) return refuse("JOB_INVALID", "job", file, parsed.issues);
  const facts = typeof repo === "function" ? await repo(parsed.value) : repo;
  const issues = [...validateGraph(parsed.value.tasks), ...repoIssues(parsed.value.tasks, facts)];
  if (issues.length) return refuse(codeOf(issues), "job", file, await located(text, issues));
  return parsed.value;
}

/** One more task for a job that has `tasks`, checked with them as one graph. */
export async function parseAddedTask(
  text: string,
  file: string,
  options: RepoFacts & { tasks: readonly JobTask[] },
): Promise<JobTask> {
  const parsed = await parseJsonWithSchema(text, JobTask);
  if (!parsed.ok) return refuse("JOB_INVALID", "task", file, parsed.issues);
  const n = options.tasks.length;
  const graph = [...options.tasks, parsed.value];
  const issues = [...validateGraph(graph), ...repoIssues(graph, options).filter((i) => i.path[1] === n)];
  if (issues.length) {
    // The new task is the only one that can be wrong: its problems are shown in its own file.
    const shift = (p: (string | number)[]) => p[0] === "tasks" && p[1] === n ? p.slice(2) : p;
    return refuse(codeOf(issues), "task", file, await located(text, issues, shift));
  }
  return parsed.value;
}
