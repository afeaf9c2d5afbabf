/**
 * The CLI's output against golden files, screenshot-free. One replay run goes through the whole loop with
 * the original pi-worker's runs beside it and a job on record; each verb's JSON, piped, is held to its golden
 * file (volatile values normalised), so a change to what parents parse shows up as a diff (`sandbox` and
 * `detect` describe the machine, so they have none); then the human
 * views are run on a pseudo-terminal (`script`) and held to theirs, coloured and with NO_COLOR, and `--json`
 * on a terminal gives the piped JSON exactly.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { spot, type SpotEnv, spotEnv, writeJson } from "../helpers.ts";
import { demoScenario } from "../scenario.ts";
import { placeLegacyRuns } from "../legacy/fixtures.ts";
import { writeFixtureJob } from "../jobs/job_fixture.ts";
import { resolvePaths } from "../../store/paths.ts";
import { assertGolden, normalizeJson, normalizeText } from "./golden.ts";
import { runUnderPty } from "./pty.ts";

const RUN = "golden-run-1";
const JOB = "job-20260101-000000-go1den";

async function setup(): Promise<{ env: SpotEnv; repo: string; taskFile: string; episode: string }> {
  const env = await spotEnv();
  const sc = await demoScenario(env.dir);
  const task = JSON.parse(await Deno.readTextFile(sc.taskFile));
  await writeJson(sc.taskFile, { ...task, runId: RUN });
  await placeLegacyRuns(join(env.stateDir, "runs"));
  await writeFixtureJob(resolvePaths((n) => env.env[n]), {
    jobId: JOB,
    status: "failed",
    cwd: sc.repo,
    allowWrites: true,
    tasks: [
      { id: "scout", role: "scout" },
      { id: "api", role: "builder", after: ["scout"] },
      { id: "review", role: "reviewer", after: ["api"] },
    ],
    records: {
      scout: { state: "succeeded", runId: "run-scout-1" },
      api: {
        state: "failed",
        runId: "run-api-1",
        reason: "OWNERSHIP_VIOLATED: wrote outside its ownership: README.md",
        changedFiles: ["api/x.ts", "README.md"],
      },
      review: { state: "blocked", reason: 'after "api" failed' },
    },
  });
  return { env, repo: sc.repo, taskFile: sc.taskFile, episode: sc.episodeFile };
}

Deno.test("every verb's piped JSON matches its golden file, and the terminal views match theirs", async (t) => {
  const { env, repo, taskFile, episode } = await setup();
  let n = 0;
  /** Runs a verb through a pipe, as a parent does, and holds its JSON to the golden file. */
  const piped = async (name: string, ...args: string[]) => {
    const r = await spot(env, repo, ...args);
    assert.equal(r.code, 0, `spot ${args.join(" ")}: ${r.stderr}`);
    assert.equal(r.stderr, "", `spot ${args.join(" ")} wrote on stderr`);
    const json = JSON.parse(r.stdout);
    await assertGolden(
      `json/${String(++n).padStart(2, "0")}-${name}.json`,
      JSON.stringify(normalizeJson(json, env.dir), null, 2) + "\n",
    );
    return json;
  };

  await t.step("the loop's verbs, piped", async () => {
    await piped(
      "doctor",
      "doctor",
      "--task",
      taskFile,
      "--profile",
      "replay",
      "--model",
      episode,
      "--sandbox",
      "none",
    );
    await piped(
      "prepare",
      "prepare",
      "--task",
      taskFile,
      "--profile",
      "replay",
      "--model",
      episode,
      "--sandbox",
      "none",
    );
    await piped("run", "run", "--id", RUN);
    const verified = await piped("verify", "verify", "--id", RUN);
    await piped("self-review", "self-review", "--id", RUN);
    await piped("diff", "diff", "--id", RUN);
    await piped("diff-hunks", "diff", "--id", RUN, "--hunks");
    await piped("inspect-reviewing", "inspect", "--id", RUN);
    const review = join(env.dir, "review.json");
    await writeJson(review, {
      schemaVersion: 1,
      verdict: "approve",
      diffSha256: verified.diffSha256,
      findings: [],
      verificationGaps: [],
      summary: "checks pass; add.ts only",
    });
    await piped("approve", "approve", "--id", RUN, "--review", review, "--message", "Fix add()");
    await piped("integrate", "integrate", "--id", RUN);
    await piped("report", "report", "--id", RUN);
    await piped("inspect-integrated", "inspect", "--id", RUN);
    await piped("list", "list");
    await piped("list-running", "list", "--running");
    await piped("recover", "recover", "--id", RUN);
    await piped("cleanup", "cleanup", "--id", RUN);
  });

  await t.step("the other verbs, piped", async () => {
    await piped("job-status", "job", "status", JOB);
    await piped("agent-ls", "agent", "ls", "--json");
    await piped("parent-meter", "parent-meter");
    await piped("config-path", "config", "path");
    await piped("config-validate", "config", "validate");
    await piped("config-show", "config", "show");
  });

  await t.step("the human views on a terminal, coloured and with NO_COLOR", async () => {
    const tty = async (name: string, args: string[], extra: Record<string, string> = {}) => {
      const r = await runUnderPty(env, args, { cwd: repo, env: extra });
      assert.equal(r.code, 0, r.output);
      await assertGolden(`tty/${name}.txt`, normalizeText(r.output, env.dir));
      return r.output;
    };
    const colour = { NO_COLOR: "" };
    const list = await tty("list", ["list"]);
    assert.ok(!list.includes("\x1b["), "NO_COLOR=1 (the test env) means no colour");
    await tty("list-colour", ["list"], colour);
    await tty("inspect", ["inspect", "--id", RUN]);
    await tty("diff-colour", ["diff", "--id", RUN], colour);
    await tty("diff", ["diff", "--id", RUN]);
    await tty("diff-hunks", ["diff", "--id", RUN, "--hunks"]);
    await tty("job-status", ["job", "status", JOB], colour);
  });

  await t.step("--json on a terminal prints exactly the piped JSON", async () => {
    for (const args of [["list"], ["inspect", "--id", RUN], ["diff", "--id", RUN], ["job", "status", JOB]]) {
      const onTty = await runUnderPty(env, [...args, "--json"], { cwd: repo });
      const viaPipe = await spot(env, repo, ...args);
      assert.deepEqual(JSON.parse(onTty.output), JSON.parse(viaPipe.stdout), args.join(" "));
    }
  });
  await Deno.remove(env.dir, { recursive: true });
});
