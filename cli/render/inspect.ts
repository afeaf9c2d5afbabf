/**
 * `spot inspect` for a person: a readable summary of one run (what, who, where, how the gates went, what it
 * cost, what failed, what to do next) instead of every file's JSON. Pure: the verb's result in, text out;
 * the JSON (`--json`, or a pipe) keeps everything.
 */
import { nextCommand } from "../../lifecycle/next_command.ts";
import { cell, type Paint, paint, shortTime, statusColor } from "./style.ts";

type Json = Record<string, unknown>;

const obj = (v: unknown): Json => (typeof v === "object" && v !== null && !Array.isArray(v) ? v as Json : {});
const list = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);
const num = (v: unknown): number | null => (typeof v === "number" && Number.isFinite(v) ? v : null);
const int = (n: number) => n.toLocaleString("en-US");

/** The result of `inspect` (verbs/inspect.ts); every part may be missing for a run that stopped early. */
export interface InspectResult {
  origin?: string;
  state: object;
  task?: object;
  failure?: unknown;
  verification?: unknown;
  selfReview?: unknown;
  review?: unknown;
  metrics?: unknown;
  workerUsage?: unknown;
  networkLogs?: unknown;
  /** The executor that ran the turn and the checks, for a run sent to the fleet. */
  executor?: string | null;
  /** Set when metrics.json predates the run's status (verbs/inspect.ts). */
  metricsStale?: string;
}

/** What to run next, by status: the loop's next step, or where to look. */
const NEXT: Record<string, string> = {
  prepared: "spot run --id {id}",
  running: "wait for the worker, or spot recover --id {id} if its process is gone",
  verifying: "spot verify --id {id}",
  selfReviewing: "spot self-review --id {id} (or review it yourself: spot diff --id {id})",
  reviewing: "spot diff --id {id} --hunks, then spot approve or spot revise",
  revising: "wait for the worker, or spot recover --id {id} if its process is gone",
  approved: "spot approve --id {id} again to commit it",
  committed: "spot integrate --id {id}",
  integrated: "spot report --id {id}, then spot cleanup --id {id}",
  reported: "spot cleanup --id {id}",
};

/** What an ended run's failure says to do (SOURCE_CHANGED's cherry-pick or prepare again), if it says. */
function hintOf(failure: Json): string | undefined {
  const hint = obj(failure.details).hint;
  return typeof hint === "string" && hint ? hint : undefined;
}

function checksLine(v: Json, p: Paint): string {
  const commands = list(v.commands).map(obj);
  const passed = commands.filter((c) => c.passed === true).length;
  const security = obj(v.security);
  const files = list(security.changedFiles).length;
  const size = `${files} file${files === 1 ? "" : "s"}, +${num(security.addedLines) ?? 0} -${
    num(security.deletedLines) ?? 0
  }`;
  const verdict = v.passed === true ? p.green("passed") : p.red("FAILED");
  return `${verdict}: ${passed}/${commands.length} check${commands.length === 1 ? "" : "s"}; scan ${
    security.passed === false ? p.red("blocked") : "passed"
  } (${size})`;
}

function problemLines(v: Json): string[] {
  const out: string[] = [];
  for (const c of list(v.commands).map(obj).filter((c) => c.passed === false)) {
    const why = c.timedOut === true ? "timed out" : `exit ${cell(c.exitCode ?? c.code)}`;
    out.push(`check ${cell(list(c.argv).join(" "))}: ${why}`);
  }
  const issues = [...list(obj(v.security).issues), ...list(v.locks)].map(obj);
  for (const i of issues.slice(0, 8)) out.push(`${cell(i.code)}: ${cell(i.message)}`);
  if (issues.length > 8) out.push(`… ${issues.length - 8} more in verification.json`);
  return out;
}

/** Statuses in which a revision's diff is being made or verified: the verification on file is older. */
const REDOING: ReadonlySet<string> = new Set(["revising", "verifying"]);

function usageLine(u: Json): string | null {
  const usage = obj(u.usage);
  if (num(usage.input) === null) return null;
  const cost = num(u.costUsd);
  const attempts = num(u.attempts);
  return [
    `${int(num(usage.input)!)} in (+${int(num(usage.cacheRead) ?? 0)} cached)`,
    `${int(num(usage.output) ?? 0)} out`,
    ...(cost !== null ? [`$${cost.toFixed(4)}`] : []),
    // Every launch of the worker: each turn (run, self-review, revise) and each retry of one.
    ...(attempts !== null ? [`${attempts} worker launch${attempts === 1 ? "" : "es"}`] : []),
  ].join(" · ");
}

function networkLine(logs: Json): string | null {
  const parts = Object.entries(logs).map(([file, counts]) =>
    `${cell(file)} ${Object.entries(obj(counts)).map(([k, n]) => `${cell(k)} ${n}`).join(", ")}`
  );
  return parts.length ? parts.join("; ") : null;
}

export function renderInspect(result: InspectResult, options: { color?: boolean } = {}): string {
  const p = paint(options.color ?? false);
  const s = obj(result.state);
  const id = cell(s.runId);
  const status = cell(s.status);
  const rows: [string, string | null][] = [];
  const add = (label: string, value: string | null) => value && rows.push([label, value]);
  const sandbox = obj(s.sandboxDetails);
  add("goal", cell(obj(result.task).goal));
  add(
    "worker",
    `${cell(s.profile)}: ${cell(s.adapter)} CLI, ${cell(s.provider)} ${cell(s.model)}; caller ${
      cell(s.caller)
    }`,
  );
  const fleet = obj(s.fleet);
  if (fleet.role === "origin") {
    const attempt = num(fleet.attempt);
    add(
      "executor",
      `${result.executor ? cell(result.executor) : "not claimed yet"}${
        fleet.taskId
          ? ` (fleet task ${cell(fleet.taskId)}${attempt !== null ? `, attempt ${attempt}` : ""})`
          : ""
      }`,
    );
  }
  add(
    "sandbox",
    sandbox.optedOut === true
      ? "none (opted out)"
      : `${cell(s.sandbox)}${sandbox.backend ? ` (${cell(sandbox.backend)})` : ""}`,
  );
  add("branch", `${cell(s.workerBranch)} from ${cell(s.sourceBranch)}`);
  add("worktree", s.cleanedAt ? `removed ${shortTime(s.cleanedAt)}` : cell(s.worktreePath));
  add("time", `created ${shortTime(s.createdAt)}, updated ${shortTime(s.updatedAt)} (UTC)`);
  if (num(s.revisionRound)) add("revisions", String(s.revisionRound));
  const v = obj(result.verification);
  // While a revision is worked on or verified, what is on file judged the diff before it.
  const round = num(s.revisionRound) ?? 0;
  const before = round > 0 && REDOING.has(status) ? p.dim(`(before revision ${round}) `) : "";
  if (Object.keys(v).length) add("verified", before + checksLine(v, p));
  for (const line of Object.keys(v).length ? problemLines(v) : []) add("", line);
  if (s.selfReviewSkipped === true) add("self-review", `${before}skipped (${cell(s.selfReviewSkipReason)})`);
  else if (result.selfReview) add("self-review", before + cell(obj(result.selfReview).summary));
  const review = obj(result.review);
  if (review.verdict) add("review", `${cell(review.verdict)}: ${cell(review.summary)}`);
  if (s.implementationCommit) add("committed", cell(s.implementationCommit));
  if (s.integratedCommit) add("landed", cell(s.integratedCommit));
  add("usage", usageLine(obj(result.workerUsage)));
  const headline = obj(result.metrics).headline;
  if (typeof headline === "string") add("savings", cell(headline));
  if (result.metricsStale) add("", p.dim(cell(result.metricsStale)));
  add("network", networkLine(obj(result.networkLogs)));
  const failure = obj(result.failure ?? s.failure);
  if (failure.code) add("failure", p.red(`${cell(failure.code)}: ${cell(failure.message)}`));
  else if (s.blockedReason) add("blocked", p.red(cell(s.blockedReason)));
  const readOnly = result.origin === "pi-worker";
  // An integrated run moves on to its report, then its cleanup, then nothing.
  const step = status === "integrated" && s.cleanedAt
    ? ""
    : status === "integrated" && result.metrics
    ? "reported"
    : status;
  // A run whose turn went to the fleet is sent there again, as recover and every refusal say.
  const next = readOnly
    ? "read-only here: finish or clean it up with the original pi-worker"
    : step === "prepared" && obj(s.fleet).role === "origin"
    ? nextCommand("prepared", id, { fleet: true })
    : NEXT[step]?.replaceAll("{id}", id) ?? hintOf(failure);
  add("next", next ?? null);
  const width = Math.max(...rows.map(([label]) => label.length));
  const origin = readOnly ? p.dim(" (from pi-worker)") : "";
  return [
    `${p.bold(`run ${id}`)}  ${statusColor(status, p)}${origin}`,
    ...rows.map(([label, value]) => `  ${p.dim(label.padEnd(width))}  ${value}`),
    "",
  ].join("\n");
}
