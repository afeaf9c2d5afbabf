/**
 * Parallel builders get ports and a compose project of their own: the worker and spot's checks of each task
 * see the same SPOT_PORT_BASE, PORT and COMPOSE_PROJECT_NAME, and two tasks never share a block.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { episode, init, replay, result, runToEnd, setup, task, write } from "./helpers.ts";

const SHOW = [
  "sh",
  "-c",
  'echo "ports=$SPOT_PORT_BASE/$SPOT_PORT_COUNT port=$PORT compose=$COMPOSE_PROJECT_NAME"',
];

async function builder(dir: string, id: string, file: string) {
  return task(id, "builder", {
    ownership: [id],
    checks: [{ id: "env", argv: SHOW }],
    model: replay(
      await episode(dir, id, [
        { op: "exec", argv: SHOW },
        write(file, "export const v = 2;\n"),
        result({ summary: "done", changedFiles: [file] }),
      ]),
    ),
  });
}

for (const sandbox of ["none", "bwrap"] as const) {
  Deno.test(`job ports (${sandbox}): each task's worker and checks share its port block and compose project, unique per task`, async () => {
    const { env, repo } = await setup(sandbox);
    const created = await init(env, repo, {
      allowWrites: true,
      config: { limits: { concurrency: 2 } },
      tasks: [await builder(env.dir, "api", "api/x.ts"), await builder(env.dir, "ui", "ui/y.ts")],
    });
    assert.equal(created.code, 0, created.stderr);
    const jobId = String(created.json.jobId);
    const done = await runToEnd(env, repo, jobId);
    assert.equal(done.code, 0, done.stdout + done.stderr);
    const seen: Record<string, string> = {};
    for (const id of ["api", "ui"]) {
      const runDir = join(env.stateDir, "runs", `${jobId}.${id}`);
      const events = (await Deno.readTextFile(join(runDir, "events.jsonl"))).trim().split("\n").map((l) =>
        JSON.parse(l)
      );
      const worker = String(events.find((e) => e.type === "worker_tool_result")?.output ?? "").trim();
      const verification = JSON.parse(await Deno.readTextFile(join(runDir, "verification.json")));
      const check = String(verification.commands[0].stdout).trim();
      assert.match(worker, new RegExp(`^ports=(\\d+)/10 port=\\1 compose=spot-${jobId}-${id}$`), worker);
      assert.equal(check, worker, "the checks see what the worker saw");
      seen[id] = worker.split(" ")[0];
    }
    assert.notEqual(seen.api, seen.ui, "two tasks, two blocks");
    await Deno.remove(env.dir, { recursive: true });
  });
}
