/**
 * Routing without --profile takes only profiles that are ready here (CLI found, key set, provider
 * reachable), and when none is, prepare refuses with doctor's reasons and fixes before writing anything;
 * doctor without --task checks defaultProfile, as pi-worker did, and says so.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { spot, spotEnv, writeJson } from "../helpers.ts";
import { demoScenario } from "../scenario.ts";

type Err = { code: string; message: string; details: Record<string, unknown> };
const err = (json: Record<string, unknown>) => json.error as Err;

/** A cheap pi profile that cannot run here: its CLI is not where it says, and its key is not set. */
const UNREADY = {
  adapter: "pi",
  provider: "deepseek",
  model: "deepseek-v4-flash",
  apiKeyEnv: "SPOT_TEST_KEY_NOBODY_SET",
  binary: "/nonexistent/spot-test/pi",
  costTier: "cheap",
};

async function runDirs(stateDir: string): Promise<string[]> {
  const out: string[] = [];
  try {
    for await (const e of Deno.readDir(join(stateDir, "runs"))) out.push(e.name);
  } catch { /* no runs folder: nothing written */ }
  return out;
}

Deno.test("prepare without --profile passes over a profile whose CLI is missing and key unset, and records why", async () => {
  const env = await spotEnv();
  const sc = await demoScenario(env.dir);
  await writeJson(env.configFile, {
    profiles: {
      "cheap-unready": UNREADY,
      "std-ready": { adapter: "replay", provider: "replay", model: sc.episodeFile, costTier: "standard" },
    },
  });
  const r = await spot(env, sc.repo, "prepare", "--task", sc.taskFile, "--sandbox", "none");
  assert.equal(r.code, 0, r.stderr);
  assert.equal(r.json.profile, "std-ready", "the low-difficulty task would have gone to the cheap profile");
  const routing = JSON.parse(
    await Deno.readTextFile(join(env.stateDir, "runs", String(r.json.runId), "routing.json")),
  );
  const skipped = routing.notReady as { profile: string; problems: { name: string; fix?: string }[] }[];
  assert.deepEqual(skipped.map((s) => s.profile), ["cheap-unready"]);
  assert.deepEqual(skipped[0].problems.map((p) => p.name), ["worker binary", "credential"]);
  assert.ok(skipped[0].problems.every((p) => p.fix), "each reason carries doctor's fix");
  await Deno.remove(env.dir, { recursive: true });
});

Deno.test("prepare without --profile refuses with every candidate's reasons when none is ready, and writes nothing", async () => {
  const env = await spotEnv();
  const sc = await demoScenario(env.dir);
  await writeJson(env.configFile, {
    profiles: {
      "cheap-unready": UNREADY,
      "std-unready": { ...UNREADY, costTier: "standard", apiKeyEnv: "SPOT_TEST_OTHER_KEY_NOBODY_SET" },
    },
  });
  const r = await spot(env, sc.repo, "prepare", "--task", sc.taskFile, "--sandbox", "none");
  assert.equal(r.code, 2, r.stderr);
  const e = err(r.json);
  assert.equal(e.code, "NO_ROUTABLE_PROFILE");
  assert.match(e.message, /no profile it could go to is ready here/);
  assert.match(
    e.message,
    /cheap-unready \(worker binary: \/nonexistent\/spot-test\/pi not found; credential:/,
  );
  assert.match(e.message, /SPOT_TEST_OTHER_KEY_NOBODY_SET is not set/);
  const notReady = e.details.notReady as { profile: string; problems: { fix?: string }[] }[];
  assert.deepEqual(notReady.map((n) => n.profile), ["cheap-unready", "std-unready"]);
  assert.match(String(e.details.replay), /--profile replay --model EPISODE\.jsonl/);
  // The way out with no credentials is in the message a person reads, not only in the details.
  assert.match(
    e.message,
    /with no credentials, --profile replay --model <EPISODE> runs the built-in replay worker/,
  );
  assert.match(String(e.details.hint), /--profile replay --model <EPISODE>/);
  assert.deepEqual(await runDirs(env.stateDir), [], "no run, no worktree, no slot");
  // doctor --task agrees with prepare, so it cannot say yes where prepare refuses.
  const doctor = await spot(env, sc.repo, "doctor", "--task", sc.taskFile, "--sandbox", "none");
  assert.equal(err(doctor.json).code, "NO_ROUTABLE_PROFILE", doctor.stderr);
  // A named profile is taken as named: the user asked for it.
  const named = await spot(
    env,
    sc.repo,
    "prepare",
    "--task",
    sc.taskFile,
    "--profile",
    "replay",
    "--model",
    sc.episodeFile,
    "--sandbox",
    "none",
  );
  assert.equal(named.code, 0, named.stderr);
  await Deno.remove(env.dir, { recursive: true });
});

Deno.test("doctor without --task checks defaultProfile, not a profile routing would pick, and says why", async () => {
  const env = await spotEnv();
  const sc = await demoScenario(env.dir);
  await writeJson(env.configFile, {
    defaultProfile: "mine",
    profiles: {
      mine: { adapter: "replay", provider: "replay", model: sc.episodeFile },
      cheap: { adapter: "replay", provider: "replay", model: sc.episodeFile, costTier: "cheap" },
    },
  });
  const r = await spot(env, sc.repo, "doctor", "--sandbox", "none");
  assert.equal(r.code, 0, r.stderr);
  assert.deepEqual([r.json.profile, r.json.profileSource], ["mine", "default"]);
  assert.match(String(r.json.reason), /no --task: doctor checks defaultProfile/);
  // With a task, doctor checks what prepare would route that task to, and says that too.
  const routed = await spot(env, sc.repo, "doctor", "--task", sc.taskFile, "--sandbox", "none");
  assert.equal(routed.code, 0, routed.stderr);
  assert.deepEqual([routed.json.profile, routed.json.profileSource], ["cheap", "difficulty"]);
  assert.match(String(routed.json.reason), /costTier cheap/);
  await Deno.remove(env.dir, { recursive: true });
});
