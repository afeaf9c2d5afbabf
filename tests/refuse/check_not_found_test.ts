/**
 * A check whose program does not exist is refused at prepare (CHECK_NOT_FOUND, nothing written) and reported by
 * doctor, naming the program and where spot looked, instead of passing both and failing at verify as a Deno
 * permission error on the sandbox's binary.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { spot, spotEnv, writeJson } from "../helpers.ts";
import { demoScenario } from "../scenario.ts";

type Err = { code: string; message: string; details: Record<string, unknown> };
const err = (json: Record<string, unknown>) => json.error as Err;

Deno.test("prepare refuses a check whose program is not on PATH or not at its absolute path; doctor names it too", async () => {
  const env = await spotEnv();
  // A PATH that names a directory twice (a shell profile sourced twice) is listed once, in its order.
  const dirs = env.env.PATH.split(":");
  env.env.PATH = [...dirs, dirs[0], ...dirs].join(":");
  const sc = await demoScenario(env.dir);
  const task = JSON.parse(await Deno.readTextFile(sc.taskFile));
  await writeJson(sc.taskFile, {
    ...task,
    verification: [
      ...task.verification,
      { argv: ["spot-test-no-such-runner", "-q"], timeoutSeconds: 30 },
      { argv: ["/nonexistent/spot-test/bin/pytest"], timeoutSeconds: 30 },
      // A path inside the tree may be built by an earlier check or the dependency setup: only verify can tell.
      { argv: ["./build/run-tests"], timeoutSeconds: 30 },
    ],
  });
  const args = ["--task", sc.taskFile, "--profile", "replay", "--model", sc.episodeFile, "--sandbox", "none"];
  const r = await spot(env, sc.repo, "prepare", ...args);
  assert.equal(r.code, 2, r.stderr);
  const e = err(r.json);
  assert.equal(e.code, "CHECK_NOT_FOUND");
  const firstDir = env.env.PATH.split(":")[0];
  assert.match(e.message, /check 2 \(spot-test-no-such-runner -q\): "spot-test-no-such-runner" is not found/);
  assert.ok(e.message.includes(`looked in ${firstDir}`), e.message);
  assert.match(
    e.message,
    /check 3 .*"\/nonexistent\/spot-test\/bin\/pytest" is not found \(looked in \/nonexistent/,
  );
  assert.doesNotMatch(e.message, /run-tests/);
  // The fix is in the message a person reads, not only in details.fix.
  assert.ok(e.message.endsWith(String(e.details.fix)), e.message);
  assert.match(e.message, /install it where spot's PATH finds it outside the repository/);
  const looked = (e.details.missing as { looked: string[] }[])[0].looked;
  assert.deepEqual(looked, [...new Set(looked)], "no directory listed twice");
  const listed = /check 2 .*?\(looked in ([^)]*)\)/.exec(e.message)?.[1] ?? "";
  assert.equal(listed.split(", ").length, new Set(listed.split(", ")).size, listed);
  const missing = e.details.missing as { program: string }[];
  assert.deepEqual(missing.map((m) => m.program), [
    "spot-test-no-such-runner",
    "/nonexistent/spot-test/bin/pytest",
  ]);
  const runs = await Array.fromAsync(Deno.readDir(join(env.stateDir, "runs"))).catch(() => []);
  assert.deepEqual(runs, [], "nothing was admitted");

  const doctor = await spot(env, sc.repo, "doctor", ...args);
  assert.equal(doctor.code, 3, doctor.stderr);
  const d = err(doctor.json);
  assert.equal(d.code, "DOCTOR_FAILED");
  assert.equal(d.details.causeCode, "CHECK_NOT_FOUND");
  const lines = (d.details.checks as { name: string; ok: boolean; detail: string }[]).filter((c) => !c.ok);
  assert.deepEqual(lines.map((c) => c.name), ["check program", "check program"]);
  assert.match(lines[0].detail, /"spot-test-no-such-runner" is not found/);
  await Deno.remove(env.dir, { recursive: true });
});

Deno.test("a runner found only in the repository's own directories is refused: the checks never search the tree", async () => {
  const env = await spotEnv();
  const sc = await demoScenario(env.dir);
  const bin = join(sc.repo, "tools", "bin");
  const venv = join(sc.repo, ".venv", "bin");
  for (const dir of [bin, venv]) {
    await Deno.mkdir(dir, { recursive: true });
    await Deno.writeTextFile(join(dir, `spot-test-${dir === bin ? "tree" : "venv"}-runner`), "#!/bin/sh\n", {
      mode: 0o755,
    });
  }
  await Deno.writeTextFile(join(sc.repo, ".git", "info", "exclude"), ".venv/\ntools/\n");
  // As if the user had both on PATH: a tree directory a worker could fill, and an activated venv.
  env.env.PATH = `${bin}:${venv}:${env.env.PATH}`;
  const task = JSON.parse(await Deno.readTextFile(sc.taskFile));
  const withCheck = (program: string) =>
    writeJson(sc.taskFile, { ...task, verification: [{ argv: [program], timeoutSeconds: 30 }] });
  const prepare = () =>
    spot(env, sc.repo, "prepare", "--task", sc.taskFile, "--profile", "replay", "--model", sc.episodeFile);
  await withCheck("spot-test-tree-runner");
  const tree = await prepare();
  assert.equal(err(tree.json).code, "CHECK_NOT_FOUND", tree.stderr);
  assert.ok(!err(tree.json).message.includes(bin), "the tree's directory is not where a check looks");
  // A dependency dir spot may show the checks (an activated .venv) is where a check can look.
  await withCheck("spot-test-venv-runner");
  const venvRun = await prepare();
  assert.notEqual(err(venvRun.json)?.code, "CHECK_NOT_FOUND", venvRun.stderr);
  await Deno.remove(env.dir, { recursive: true });
});
