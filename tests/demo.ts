/**
 * `deno task demo`: the whole loop through the CLI on a throwaway repo, with
 * the built-in replay worker and a scripted parent review. Exits 0 when the
 * fix is integrated. Everything it makes lives in one temporary directory,
 * removed when it ends (kept with `--keep`, or when a step fails, to look at).
 */
import { join } from "node:path";
import { demoScenario } from "./scenario.ts";
import { type CliResult, spot, spotEnv, writeJson } from "./helpers.ts";

const keep = Deno.args.includes("--keep");
const env = await spotEnv();
// spot's own temporary files go where the demo's do (the environment spot gets is otherwise minimal).
const tmp = Deno.env.get("TMPDIR");
if (tmp) env.env.TMPDIR = tmp;
const say = (text: string) => console.log(text);

/** Removes the demo's directory: the repo, spot's state, config and cache for it, the review file. */
async function removeWorkspace(): Promise<void> {
  await Deno.remove(env.dir, { recursive: true }).catch(() => {});
}

// Ctrl-C leaves nothing behind either (a step under way is a child of spot, which ends it on the signal).
const onInterrupt = () => {
  void removeWorkspace().finally(() => Deno.exit(130));
};
Deno.addSignalListener("SIGINT", onInterrupt);

function show(step: string, r: CliResult, keys: string[]): void {
  const picked = Object.fromEntries(keys.filter((k) => k in r.json).map((k) => [k, r.json[k]]));
  say(
    `${r.code === 0 ? "ok " : "ERR"} spot ${step.padEnd(11)} ${
      JSON.stringify(r.code === 0 ? picked : r.json.error)
    }`,
  );
  if (r.code !== 0) {
    say(`\nThe demo stopped at "${step}". Files are kept in ${env.dir}`);
    Deno.exit(1);
  }
}

say(`spot demo: a repo whose test fails, delegated to the built-in replay worker\nworkspace: ${env.dir}\n`);
const sc = await demoScenario(env.dir);
// spot refuses to run a worker without the OS sandbox unless told to; the demo says so and opts out openly.
const sandbox = await spot(env, sc.repo, "sandbox");
const optOut: string[] = [];
if (sandbox.code === 0) {
  say(`sandbox: ${sandbox.json.backend} (${sandbox.json.level})\n`);
} else {
  const why = (sandbox.json.error as { message?: string } | undefined)?.message ?? "unavailable";
  say(
    `sandbox: no OS sandbox here (${why});\n  the demo runs with --sandbox none, which the run records. Install bubblewrap to see it sandboxed.\n`,
  );
  optOut.push("--sandbox", "none");
}
let r = await spot(
  env,
  sc.repo,
  "prepare",
  "--task",
  sc.taskFile,
  "--profile",
  "replay",
  "--model",
  sc.episodeFile,
  ...optOut,
);
show("prepare", r, ["runId", "status", "worktreePath"]);
const id = String(r.json.runId);
show("run", await spot(env, sc.repo, "run", "--id", id), ["status", "attempts"]);
r = await spot(env, sc.repo, "verify", "--id", id);
show("verify", r, ["status", "passed", "diffSha256"]);
if (r.json.status === "selfReviewing") {
  show("self-review", await spot(env, sc.repo, "self-review", "--id", id), ["status", "skipped", "reason"]);
}

// The parent's review: it reads verification.json, not the worker's claims, and binds its verdict to the diff hash.
const verification = JSON.parse(await Deno.readTextFile(join(env.stateDir, "runs", id, "verification.json")));
const reviewFile = join(env.dir, "review.json");
await writeJson(reviewFile, {
  schemaVersion: 1,
  verdict: verification.passed ? "approve" : "revise",
  diffSha256: verification.diffSha256,
  findings: [],
  verificationGaps: verification.passed ? [] : ["verification failed"],
  summary: "spot's own checks pass and the diff touches only add.ts",
});
say(
  `    parent review: ${verification.passed ? "approve" : "revise"} (diff ${
    String(verification.diffSha256).slice(0, 12)
  })`,
);
show(
  "approve",
  await spot(
    env,
    sc.repo,
    "approve",
    "--id",
    id,
    "--review",
    reviewFile,
    "--message",
    "Fix add() to return the sum",
  ),
  ["status", "implementationCommit"],
);
const integrated = await spot(env, sc.repo, "integrate", "--id", id);
show("integrate", integrated, [
  "status",
  "integratedCommit",
  "pushed",
]);
show("report", await spot(env, sc.repo, "report", "--id", id), ["status", "reportFile"]);
show("cleanup", await spot(env, sc.repo, "cleanup", "--id", id), ["status", "cleaned"]);

say("\n" + (await Deno.readTextFile(join(env.stateDir, "runs", id, "report.md"))).trim());
const fixed = await Deno.readTextFile(join(sc.repo, "add.ts"));
if (!fixed.includes("a + b")) {
  say("\nThe source branch does not hold the fix");
  Deno.exit(1);
}
const landed = String(integrated.json.integratedCommit ?? "").slice(0, 12);
Deno.removeSignalListener("SIGINT", onInterrupt);
if (keep) {
  say(`\nThe fix is on the source branch of ${sc.repo} (commit ${landed}, not pushed).`);
  say(`Kept (--keep): ${env.dir}; remove it with rm -rf when done.`);
} else {
  await removeWorkspace();
  say(`\nThe fix landed as commit ${landed} on the throwaway repo's source branch (not pushed).`);
  say(`Removed the demo's workspace ${env.dir}; deno task demo --keep keeps it to look around.`);
}
