/** worker.log through the real loop: a worker printing ANSI escapes and an OSC 52 clipboard write. */
import assert from "node:assert/strict";
import { join } from "node:path";
import { spot, spotEnv } from "./helpers.ts";
import { demoScenario } from "./scenario.ts";

const ESC = "\x1b";
const OSC52 = `${ESC}]52;c;ZWNobyBwd25lZA==\x07`;

Deno.test("worker.log of a run whose worker printed ANSI escapes and an OSC 52 sequence holds neither", async () => {
  const env = await spotEnv();
  const sc = await demoScenario(env.dir, [
    { op: "say", text: `${ESC}[31mred alert${ESC}[0m ${OSC52}copied` },
    { op: "exec", argv: ["printf", `${ESC}[2J${ESC}]52;c;c2VjcmV0\x07tool says hi`] },
    { op: "say", text: "done" },
  ]);
  try {
    const prepared = await spot(
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
    const id = String(prepared.json.runId);
    const run = await spot(env, sc.repo, "run", "--id", id);
    assert.equal(run.code, 0, run.stderr);
    const runDir = join(env.stateDir, "runs", id);
    const log = await Deno.readTextFile(join(runDir, "worker.log"));
    assert.match(log, /says: red alert copied/);
    assert.match(log, /tool ok: tool says hi/);
    assert.ok(!log.includes(ESC), "an escape character reached worker.log");
    assert.ok(!log.includes("]52;") && !log.includes("\x07"), "an OSC 52 sequence reached worker.log");
    // The raw stream keeps what the worker said: only the human view is cleaned.
    assert.ok((await Deno.readTextFile(join(runDir, "worker-stream.jsonl"))).includes("\\u001b]52;"));
  } finally {
    await Deno.remove(env.dir, { recursive: true });
  }
});
