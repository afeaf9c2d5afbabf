/**
 * On a real terminal (tmux), `spot run` shows a live progress line with the worker's current tool and file;
 * through a pipe it prints nothing extra.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { spawnProcess } from "../sandbox/spawn.ts";
import { demoScenario, FIXED_ADD, prepareScenario } from "./scenario.ts";
import { CLI, CLI_FLAGS, ROOT, spot, spotEnv } from "./helpers.ts";

async function tmux(socket: string, ...args: string[]): Promise<string> {
  const r = await spawnProcess(["tmux", "-L", socket, ...args], {
    env: { PATH: Deno.env.get("PATH") ?? "", TERM: "xterm" },
  });
  return r.stdout;
}

Deno.test("spot run shows a ticking progress line with the current tool and file on a TTY, none through a pipe", async () => {
  const env = await spotEnv();
  const sc = await demoScenario(env.dir, [
    { op: "say", text: "thinking" },
    { op: "write", path: "add.ts", content: FIXED_ADD },
    { op: "sleep", ms: 4_000 },
  ]);
  const id = await prepareScenario(env, sc);
  const socket = `spot-progress-${crypto.randomUUID().slice(0, 8)}`;
  const exports = Object.entries(env.env).map(([k, v]) => `${k}='${v}'`).join(" ");
  const cmd = `env -i ${exports} ${Deno.execPath()} run ${CLI_FLAGS.join(" ")} --config ${
    join(ROOT, "deno.json")
  } ${CLI} run --id ${id}`;
  await tmux(socket, "new-session", "-d", "-s", "p", "-x", "220", "-y", "30", "-c", sc.repo);
  try {
    await tmux(socket, "send-keys", "-t", "p", cmd, "Enter");
    let seen = "";
    const until = Date.now() + 20_000;
    while (Date.now() < until && !/\[spot\] run .*write add\.ts.*\(\d+\.\ds\)/.test(seen)) {
      await new Promise((r) => setTimeout(r, 200));
      seen = await tmux(socket, "capture-pane", "-p", "-t", "p");
    }
    assert.match(seen, /\[spot\] run \S+: write add\.ts · \d+ events \(\d+\.\ds\)/, seen);
    while (Date.now() < until && !seen.includes('"command":"run"')) {
      await new Promise((r) => setTimeout(r, 200));
      seen = await tmux(socket, "capture-pane", "-p", "-t", "p");
    }
    assert.match(seen, /"status":"verifying"/);
  } finally {
    await tmux(socket, "kill-server");
  }
  // The same verb through a pipe keeps stderr empty, so scripts read clean JSON.
  const verify = await spot(env, sc.repo, "verify", "--id", id);
  assert.equal(verify.stderr, "");
  await Deno.remove(env.dir, { recursive: true });
});
