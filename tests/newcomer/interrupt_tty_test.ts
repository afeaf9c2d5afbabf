/**
 * Ctrl-C on a terminal during `spot run`: the error a person reads names the exit code the shell then sees
 * (130). A newcomer read `WORKER_INTERRUPTED (exit 3)` over a process that exited 130.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { spawnProcess } from "../../sandbox/spawn.ts";
import { demoScenario, FIXED_ADD, prepareScenario } from "../scenario.ts";
import { CLI, CLI_FLAGS, ROOT, spotEnv } from "../helpers.ts";

async function tmux(socket: string, ...args: string[]): Promise<string> {
  const r = await spawnProcess(["tmux", "-L", socket, ...args], {
    env: { PATH: Deno.env.get("PATH") ?? "", TERM: "xterm" },
  });
  return r.stdout;
}

async function paneUntil(socket: string, pattern: RegExp, until: number): Promise<string> {
  let seen = "";
  while (Date.now() < until && !pattern.test(seen)) {
    await new Promise((r) => setTimeout(r, 200));
    seen = await tmux(socket, "capture-pane", "-p", "-J", "-t", "p");
  }
  return seen;
}

Deno.test("Ctrl-C during spot run on a terminal: the message names exit 130, the exit the shell sees", async () => {
  const env = await spotEnv();
  const sc = await demoScenario(env.dir, [
    { op: "write", path: "add.ts", content: FIXED_ADD },
    { op: "sleep", ms: 30_000 },
  ]);
  const id = await prepareScenario(env, sc, "--sandbox", "none");
  const socket = `spot-interrupt-${crypto.randomUUID().slice(0, 8)}`;
  const exports = Object.entries(env.env).map(([k, v]) => `${k}='${v}'`).join(" ");
  const cmd = `env -i ${exports} ${Deno.execPath()} run ${CLI_FLAGS.join(" ")} --config ${
    join(ROOT, "deno.json")
  } ${CLI} run --id ${id}; echo "EXIT=$?"`;
  await tmux(socket, "new-session", "-d", "-s", "p", "-x", "200", "-y", "40", "-c", sc.repo);
  try {
    await tmux(socket, "send-keys", "-t", "p", cmd, "Enter");
    const until = Date.now() + 40_000;
    const running = await paneUntil(socket, /\[spot\] run \S+: write add\.ts/, until);
    assert.match(running, /\[spot\] run /, running);
    await tmux(socket, "send-keys", "-t", "p", "C-c");
    const seen = await paneUntil(socket, /EXIT=\d+/, until);
    assert.match(seen, /EXIT=130/, seen);
    assert.match(seen, /WORKER_INTERRUPTED/, seen);
    assert.match(seen, /\(exit 130\)/, seen);
    assert.doesNotMatch(seen, /\(exit 3\)/, seen);
  } finally {
    await tmux(socket, "kill-server");
  }
  await Deno.remove(env.dir, { recursive: true });
});
