/** Bad contracts are refused at the door: exit 2, every problem with its line:col, nothing written. */
import assert from "node:assert/strict";
import { join } from "node:path";
import { demoScenario } from "./scenario.ts";
import { spot, spotEnv } from "./helpers.ts";

const BASE = {
  schemaVersion: 1,
  goal: "Fix add() so that it returns the sum",
  allowedPaths: ["add.ts"],
  acceptanceCriteria: ["add(2, 3) returns 5"],
  verification: [{ argv: ["deno", "test", "add_test.ts"], timeoutSeconds: 60 }],
  risk: "low",
};

async function runsDirEntries(stateDir: string): Promise<string[]> {
  const out: string[] = [];
  try {
    for await (const e of Deno.readDir(join(stateDir, "runs"))) out.push(e.name);
  } catch {
    // no runs directory at all is fine too
  }
  return out;
}

const cases: [string, Record<string, unknown>, RegExp][] = [
  ["an unknown key", { ...BASE, extra: true }, /:\d+:\d+ extra: Unrecognized key/],
  [
    "a relative repositoryRoot",
    { ...BASE, repositoryRoot: "repo" },
    /:\d+:\d+ repositoryRoot: must be an absolute path/,
  ],
  [
    "a shell-string verification",
    { ...BASE, verification: [{ argv: ["npm test && echo ok"], timeoutSeconds: 60 }] },
    /:\d+:\d+ verification\[0\]\.argv\[0\]: must be a program name/,
  ],
  [
    "a path with ..",
    { ...BASE, allowedPaths: ["../outside/x.ts"] },
    /:\d+:\d+ allowedPaths\[0\]: must not contain a "\.\." segment/,
  ],
  [
    "an env name outside the allowlist",
    {
      ...BASE,
      verification: [{ argv: ["deno", "test"], timeoutSeconds: 60, env: { AWS_SECRET_ACCESS_KEY: "x" } }],
    },
    /verification\[0\]\.env\.AWS_SECRET_ACCESS_KEY: "AWS_SECRET_ACCESS_KEY" is not in verificationEnvAllowlist/,
  ],
];

for (const [what, contract, expected] of cases) {
  Deno.test(`prepare refuses ${what} with exit 2 and line:col, writing nothing`, async () => {
    const env = await spotEnv();
    const sc = await demoScenario(env.dir);
    const file = join(env.dir, "bad.json");
    await Deno.writeTextFile(file, JSON.stringify(contract, null, 2));
    const r = await spot(
      env,
      sc.repo,
      "prepare",
      "--task",
      file,
      "--profile",
      "replay",
      "--model",
      sc.episodeFile,
    );
    assert.equal(r.code, 2, r.stderr);
    const error = r.json.error as { code: string; message: string; details: { issues: { line: number }[] } };
    assert.equal(error.code, "CONTRACT_INVALID");
    assert.match(error.message, expected);
    assert.ok(error.details.issues.every((i) => i.line > 1), "issues point into the file, not at its start");
    assert.deepEqual(await runsDirEntries(env.stateDir), []);
    // The good contract from the same scenario is accepted: the refusal was about the defect.
    const good = await spot(
      env,
      sc.repo,
      "prepare",
      "--task",
      sc.taskFile,
      "--profile",
      "replay",
      "--model",
      sc.episodeFile,
    );
    assert.equal(good.code, 0, good.stderr);
    await Deno.remove(env.dir, { recursive: true });
  });
}

Deno.test("prepare refuses a baseRevision that is not HEAD, and fills runId, root and base when omitted", async () => {
  const env = await spotEnv();
  const sc = await demoScenario(env.dir);
  const file = join(env.dir, "stale.json");
  await Deno.writeTextFile(file, JSON.stringify({ ...BASE, baseRevision: "a".repeat(40) }));
  const stale = await spot(
    env,
    sc.repo,
    "prepare",
    "--task",
    file,
    "--profile",
    "replay",
    "--model",
    sc.episodeFile,
  );
  assert.equal((stale.json.error as { code: string }).code, "BASE_REVISION_MISMATCH");
  assert.equal(stale.code, 2);
  const ok = await spot(
    env,
    sc.repo,
    "prepare",
    "--task",
    sc.taskFile,
    "--profile",
    "replay",
    "--model",
    sc.episodeFile,
  );
  const task = JSON.parse(
    await Deno.readTextFile(join(env.stateDir, "runs", String(ok.json.runId), "task.json")),
  );
  assert.equal(task.runId, ok.json.runId);
  assert.equal(task.repositoryRoot, await Deno.realPath(sc.repo));
  assert.match(task.baseRevision, /^[0-9a-f]{40}$/);
  await Deno.remove(env.dir, { recursive: true });
});

Deno.test("prepare refuses an episode with an unknown op before building anything", async () => {
  const env = await spotEnv();
  const sc = await demoScenario(env.dir, [{ op: "say", text: "hi" }, { op: "wrte", path: "x" }]);
  const r = await spot(
    env,
    sc.repo,
    "prepare",
    "--task",
    sc.taskFile,
    "--profile",
    "replay",
    "--model",
    sc.episodeFile,
  );
  assert.equal(r.code, 2);
  const error = r.json.error as { code: string; message: string; details: Record<string, unknown> };
  assert.equal(error.code, "EPISODE_INVALID");
  // The bad line is named, and what an op may be (a newcomer got only `Unknown op "wrte"`).
  assert.match(error.message, /: line 2: Unknown op "wrte"$/);
  assert.equal(error.details.line, 2);
  assert.equal(error.details.file, sc.episodeFile);
  assert.match(String(error.details.hint), /write, delete, say/);
  assert.deepEqual(await runsDirEntries(env.stateDir), []);
  await Deno.remove(env.dir, { recursive: true });
});
