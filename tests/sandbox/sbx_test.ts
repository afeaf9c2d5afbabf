/**
 * Conformance, SBX-01: the sandbox fails closed. Without a usable bwrap,
 * prepare and run refuse with SANDBOX_UNAVAILABLE and say how to fix it or
 * opt out; opting out is explicit and recorded on the run.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { readJsonLines } from "../../store/files.ts";
import { spot } from "../helpers.ts";
import { type Lab, lab, prepareRun, readOr, shStep } from "./harness.ts";

async function task(l: Lab): Promise<string> {
  const file = join(l.dir, "task.json");
  await Deno.writeTextFile(
    file,
    JSON.stringify({
      schemaVersion: 1,
      goal: "Probe the sandbox",
      allowedPaths: ["**"],
      acceptanceCriteria: ["x"],
      verification: [{ argv: ["true"], timeoutSeconds: 30 }],
      risk: "low",
    }),
  );
  await Deno.writeTextFile(join(l.dir, "say.jsonl"), JSON.stringify({ op: "say", text: "hi" }) + "\n");
  return file;
}

/** prepare with the replay worker and the given extra arguments. */
async function prepare(l: Lab, ...args: string[]) {
  const episodeFile = join(l.dir, "say.jsonl");
  return await spot(
    l.env,
    l.repo,
    "prepare",
    "--task",
    await task(l),
    "--profile",
    "replay",
    "--model",
    episodeFile,
    ...args,
  );
}

function entries(dir: string): string[] {
  try {
    return [...Deno.readDirSync(dir)].map((e) => e.name);
  } catch {
    return [];
  }
}

/** A bwrap that exists but cannot make namespaces, as on a host that blocks user namespaces. */
async function brokenBwrap(dir: string): Promise<string> {
  const path = join(dir, "bwrap");
  await Deno.writeTextFile(
    path,
    "#!/bin/sh\n[ \"$1\" = --version ] && { echo 'bubblewrap 0.8.0'; exit 0; }\n" +
      "echo 'bwrap: setting up uid map: Permission denied' >&2\nexit 1\n",
  );
  await Deno.chmod(path, 0o755);
  return path;
}

Deno.test("SBX-01: without bwrap, prepare refuses with SANDBOX_UNAVAILABLE, exit 4, and writes nothing", async () => {
  const l = await lab();
  try {
    l.env.env.PI_WORKER_BWRAP_BIN = join(l.dir, "no-such-bwrap");
    const r = await prepare(l);
    assert.equal(r.code, 4, r.stderr);
    const error = r.json.error as { code: string; message: string };
    assert.equal(error.code, "SANDBOX_UNAVAILABLE");
    assert.match(error.message, /no-such-bwrap/);
    assert.match(error.message, /--sandbox none/);
    assert.deepEqual(entries(join(l.env.stateDir, "runs")), []);
    assert.deepEqual(entries(join(l.dir, "cache", "worktrees")), []);
  } finally {
    await l.cleanup();
  }
});

Deno.test("SBX-01: a bwrap that cannot create namespaces is refused with its own error, not used", async () => {
  const l = await lab();
  try {
    l.env.env.PI_WORKER_BWRAP_BIN = await brokenBwrap(l.dir);
    const r = await prepare(l, "--sandbox", "bwrap");
    assert.equal(r.code, 4, r.stderr);
    const error = r.json.error as { code: string; message: string };
    assert.equal(error.code, "SANDBOX_UNAVAILABLE");
    assert.match(error.message, /uid map: Permission denied/);
    assert.match(error.message, /user namespaces/);
    const shown = await spot(l.env, l.repo, "sandbox");
    assert.equal(shown.code, 4, "spot sandbox refuses exactly when prepare would");
  } finally {
    await l.cleanup();
  }
});

Deno.test("SBX-01: a run prepared under bwrap refuses to start its worker once bwrap is gone", async () => {
  const l = await lab();
  try {
    const marker = join(l.dir, "worker-ran");
    const { runId } = await prepareRun(l, "bwrap", [shStep(`touch ${marker}`)]);
    l.env.env.PI_WORKER_BWRAP_BIN = join(l.dir, "no-such-bwrap");
    const r = await spot(l.env, l.repo, "run", "--id", runId);
    assert.equal(r.code, 4, r.stderr);
    assert.equal((r.json.error as { code: string }).code, "SANDBOX_UNAVAILABLE");
    const steps = await readJsonLines<{ kind: string }>(join(l.env.stateDir, "runs", runId, "steps.jsonl"))
      .catch(() => []);
    assert.deepEqual(steps.filter((s) => s.kind === "worker"), [], "no worker step started");
    assert.equal(readOr(marker, "absent"), "absent");
  } finally {
    await l.cleanup();
  }
});

Deno.test("SBX-01: --sandbox none is an explicit opt-out, recorded on the run and on every step", async () => {
  const l = await lab();
  try {
    const { runId } = await prepareRun(l, "none", [{ op: "say", text: "hi" }]);
    assert.equal((await spot(l.env, l.repo, "run", "--id", runId)).code, 0);
    const runDir = join(l.env.stateDir, "runs", runId);
    const state = JSON.parse(await Deno.readTextFile(join(runDir, "state.json")));
    assert.equal(state.sandbox, "deno-permissions");
    assert.equal(state.sandboxDetails.backend, "none");
    assert.equal(state.sandboxDetails.optedOut, true);
    assert.equal(state.sandboxDetails.source, "flag");
    assert.ok(state.sandboxDetails.notEnforced.some((n: string) => n.startsWith("filesystem")));
    const steps = await readJsonLines<{ sandbox: string; sandboxBackend: string }>(
      join(runDir, "steps.jsonl"),
    );
    assert.deepEqual(steps.map((s) => [s.sandbox, s.sandboxBackend]), [["deno-permissions", "none"]]);
  } finally {
    await l.cleanup();
  }
});

Deno.test("SBX-01: the config's sandbox key is honoured, and an unknown --sandbox value is a usage error", async () => {
  const l = await lab({ config: { sandbox: "none" } });
  try {
    const { runId } = await prepareRun(l, "none", [{ op: "say", text: "hi" }]);
    const state = JSON.parse(await Deno.readTextFile(join(l.env.stateDir, "runs", runId, "state.json")));
    assert.equal(state.sandboxDetails.backend, "none");
    const bad = await prepare(l, "--sandbox", "off");
    assert.equal(bad.code, 2, bad.stderr);
    assert.equal((bad.json.error as { code: string }).code, "CLI_USAGE");
    const fromConfig = await spot(l.env, l.repo, "sandbox");
    assert.equal(fromConfig.json.backend, "none");
    assert.equal(fromConfig.json.source, "config");
  } finally {
    await l.cleanup();
  }
});

Deno.test("a run under bwrap records the OS level and what bwrap enforced", async () => {
  const l = await lab();
  try {
    const { runId } = await prepareRun(l, "bwrap", [{ op: "say", text: "hi" }]);
    assert.equal((await spot(l.env, l.repo, "run", "--id", runId)).code, 0);
    const runDir = join(l.env.stateDir, "runs", runId);
    const state = JSON.parse(await Deno.readTextFile(join(runDir, "state.json")));
    assert.equal(state.sandbox, "os");
    assert.equal(state.sandboxDetails.backend, "bwrap");
    assert.equal(state.sandboxDetails.optedOut, false);
    for (const g of ["fs:write-worktree-only", "net:none", "pid:namespace", "env:cleared"]) {
      assert.ok(state.sandboxDetails.enforced.includes(g), g);
    }
    // The claims are those of the worker's real policy, kept per kind of step.
    assert.deepEqual(Object.keys(state.sandboxDetails.steps), ["worker"]);
    assert.deepEqual(state.sandboxDetails.steps.worker.enforced, state.sandboxDetails.enforced);
    const steps = await readJsonLines<{ sandbox: string; argv: string[]; enforced: string[] }>(
      join(runDir, "steps.jsonl"),
    );
    assert.deepEqual(steps.map((s) => s.sandbox), ["os"]);
    assert.deepEqual(steps[0].enforced, state.sandboxDetails.enforced);
    assert.ok(
      steps[0].argv.some((a) => /^--allow-run=.*bwrap/.test(a)),
      "the step may run bwrap, not the worker",
    );
  } finally {
    await l.cleanup();
  }
});
