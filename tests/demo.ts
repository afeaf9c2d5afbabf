/**
 * `deno task demo`: the whole loop through the CLI on a throwaway repo, with
 * the built-in replay worker and a scripted parent review. Exits 0 when the
 * fix is integrated.
 */
import { join } from "node:path";
import { demoScenario } from "./scenario.ts";
import { type CliResult, spot, spotEnv, writeJson } from "./helpers.ts";

const env = await spotEnv();
const say = (text: string) => console.log(text);

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
show("integrate", await spot(env, sc.repo, "integrate", "--id", id), [
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
say(`\nThe fix is on the source branch of ${sc.repo} (not pushed).`);
