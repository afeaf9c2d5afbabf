/**
 * A qoder run end to end on a stand-in qodercli that replays the Claude-shaped success fixture: the settings
 * Qoder's catalog moved at prepare reach the CLI's argv, and the result's total_credits show as the run's cost.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { demoScenario } from "./scenario.ts";
import { ROOT, spot, spotEnv } from "./helpers.ts";

/** Drains the prompt, prints its own argv as a system line spot ignores, then the recorded stream. */
async function fakeQoder(dir: string): Promise<string> {
  const path = join(dir, "qodercli");
  const stream = join(ROOT, "tests", "fixtures", "qoder", "success.jsonl");
  await Deno.writeTextFile(
    path,
    `#!/bin/sh\ncat > /dev/null\nprintf '{"type":"system","subtype":"argv","argv":"%s"}\\n' "$*"\ncat '${stream}'\n`,
  );
  await Deno.chmod(path, 0o755);
  return path;
}

Deno.test("a qoder run gets the snapped reasoningEffort, context window and maxTurns, and reports its credits", async () => {
  const bin = await Deno.makeTempDir();
  const binary = await fakeQoder(bin);
  const configured = await spotEnv({
    selfReview: { enabled: false },
    profiles: {
      q: {
        adapter: "qoder",
        provider: "qoder",
        model: "free",
        binary,
        reasoningEffort: "medium",
        maxContextSize: 300000,
        limits: { maxTurns: 7 },
      },
    },
  });
  try {
    const sc = await demoScenario(configured.dir);
    const prepared = await spot(configured, sc.repo, "prepare", "--task", sc.taskFile, "--profile", "q");
    assert.equal(prepared.code, 0, prepared.stderr);
    const id = String(prepared.json.runId);
    const run = await spot(configured, sc.repo, "run", "--id", id);
    const runDir = join(configured.stateDir, "runs", id);
    const stream = await Deno.readTextFile(join(runDir, "worker-stream.jsonl"));
    const argv = String(JSON.parse(stream.split("\n")[0]).argv);
    // The catalog moved medium → high and 300000 → 400000 for DeepSeek-Flash; the CLI gets the moved values.
    assert.match(
      argv,
      /--model DeepSeek-Flash --reasoning-effort high --context-window 400000 --max-turns 7 -$/,
    );
    assert.equal(run.code, 0, run.stderr);
    const report = await spot(configured, sc.repo, "report", "--id", id);
    assert.equal(report.code, 0, report.stderr);
    assert.equal(
      (report.json.worker as { credits: number }).credits,
      0.4,
      JSON.stringify(report.json.worker),
    );
    assert.match(await Deno.readTextFile(String(report.json.reportFile)), /, 0\.4 credits/);
    assert.match(await Deno.readTextFile(join(runDir, "worker.log")), /0\.4 credits/);
  } finally {
    await Deno.remove(configured.dir, { recursive: true }).catch(() => {});
    await Deno.remove(bin, { recursive: true }).catch(() => {});
  }
});
