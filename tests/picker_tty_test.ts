/**
 * The worker picker on a real terminal: tmux runs `spot prepare` in a pane,
 * send-keys types, capture-pane reads the screen. Each test owns its tmux
 * server (`-L`) and kills it afterwards.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { spawnProcess } from "../sandbox/spawn.ts";
import { demoScenario } from "./scenario.ts";
import { CLI, ROOT, spot, type SpotEnv, spotEnv, writeJson } from "./helpers.ts";

/** Deno's cold start plus detect; generous for a loaded 2-core machine. */
const SCREEN_TIMEOUT_MS = 30_000;

class Pane {
  readonly socket = `spot-picker-${crypto.randomUUID().slice(0, 8)}`;
  constructor(private env: Record<string, string>) {}

  async tmux(...args: string[]): Promise<string> {
    const r = await spawnProcess(["tmux", "-L", this.socket, "-f", "/dev/null", ...args], {
      env: this.env,
      timeoutMs: 10_000,
    });
    if (r.exitCode !== 0) throw new Error(`tmux ${args.join(" ")}: ${r.stderr}`);
    return r.stdout;
  }

  start(command: string): Promise<string> {
    return this.tmux("new-session", "-d", "-x", "120", "-y", "40", command);
  }

  screen(): Promise<string> {
    return this.tmux("capture-pane", "-p", "-t", "0");
  }

  async waitFor(pattern: RegExp): Promise<string> {
    const deadline = Date.now() + SCREEN_TIMEOUT_MS;
    let last = "";
    while (Date.now() < deadline) {
      last = await this.screen();
      if (pattern.test(last)) return last;
      await new Promise((r) => setTimeout(r, 150));
    }
    throw new Error(`screen never matched ${pattern}:\n${last}`);
  }

  keys(...keys: string[]): Promise<string> {
    return this.tmux("send-keys", "-t", "0", ...keys);
  }

  async kill(): Promise<void> {
    await this.tmux("kill-server").catch(() => {});
  }
}

interface Setup {
  env: SpotEnv;
  repo: string;
  taskFile: string;
  exitFile: string;
  command: (extra?: string) => string;
}

async function setup(): Promise<Setup> {
  const env = await spotEnv();
  const sc = await demoScenario(env.dir);
  const pi = join(ROOT, "tests", "fixtures", "fake-pi");
  // Nothing listens at the base URL: the fake pi never calls out.
  const profile = (model: string, costTier: string) => ({
    adapter: "pi",
    provider: "fake",
    model,
    costTier,
    baseUrl: "http://127.0.0.1:9/v1",
  });
  await writeJson(env.configFile, {
    profiles: {
      alpha: profile("alpha-model", "cheap"),
      bravo: profile("bravo-model", "standard"),
      zulu: profile("zulu-model", "premium"),
    },
  });
  // The -L socket then lives in the test's temp dir and goes with it.
  Object.assign(env.env, { PI_WORKER_PI_BIN: pi, TERM: "xterm-256color", TMUX_TMPDIR: env.dir });
  const exitFile = join(env.dir, "exit-code");
  const deno = [
    Deno.execPath(),
    "run",
    "--allow-all",
    "--no-prompt",
    "--config",
    join(ROOT, "deno.json"),
    CLI,
  ];
  const command = (extra = "") =>
    `cd '${sc.repo}' && ${deno.map((a) => `'${a}'`).join(" ")} prepare --task '${sc.taskFile}' ${extra}; ` +
    `echo $? > '${exitFile}'; sleep 600`;
  return { env, repo: sc.repo, taskFile: sc.taskFile, exitFile, command };
}

async function exitCode(file: string): Promise<number> {
  const deadline = Date.now() + SCREEN_TIMEOUT_MS;
  while (Date.now() < deadline) {
    try {
      const text = await Deno.readTextFile(file);
      if (text.trim()) return Number(text.trim());
    } catch {
      // not yet
    }
    await new Promise((r) => setTimeout(r, 150));
  }
  throw new Error("spot prepare never finished");
}

async function runStates(
  stateDir: string,
): Promise<{ profile: string; model: string; runId: string; caller: string }[]> {
  const out = [];
  try {
    for await (const e of Deno.readDir(join(stateDir, "runs"))) {
      out.push(JSON.parse(await Deno.readTextFile(join(stateDir, "runs", e.name, "state.json"))));
    }
  } catch {
    // no runs directory
  }
  return out;
}

async function withPane(fn: (pane: Pane, s: Setup) => Promise<void>): Promise<void> {
  const s = await setup();
  const pane = new Pane(s.env.env);
  try {
    await fn(pane, s);
  } finally {
    await pane.kill();
    await Deno.remove(s.env.dir, { recursive: true });
  }
}

const PROMPT = /Available worker CLIs and models/;

Deno.test("the picker on a terminal: arrow down then Enter takes the second row", async () => {
  await withPane(async (pane, s) => {
    await pane.start(s.command());
    const screen = await pane.waitFor(PROMPT);
    assert.match(screen, /pi\s+alpha-model \[cheap\][\s\S]*pi\s+bravo-model \[standard\]/);
    await pane.keys("Down");
    await pane.keys("Enter");
    assert.equal(await exitCode(s.exitFile), 0, await pane.screen());
    const [state] = await runStates(s.env.stateDir);
    assert.equal(state.profile, "bravo");
    const routing = JSON.parse(
      await Deno.readTextFile(join(s.env.stateDir, "runs", state.runId, "routing.json")),
    );
    assert.equal(routing.profileSource, "picker");
  });
});

Deno.test("the picker on a terminal: typing filters the rows, Enter takes the match", async () => {
  await withPane(async (pane, s) => {
    await pane.start(s.command());
    await pane.waitFor(PROMPT);
    await pane.keys("-l", "zulu");
    const screen = await pane.waitFor(/zulu/);
    assert.doesNotMatch(screen.slice(screen.indexOf("zulu")), /alpha-model/, "the filter hides other rows");
    await pane.keys("Enter");
    assert.equal(await exitCode(s.exitFile), 0, await pane.screen());
    assert.equal((await runStates(s.env.stateDir))[0].model, "zulu-model");
  });
});

Deno.test("the picker on a terminal: Enter alone takes the default, the first row", async () => {
  await withPane(async (pane, s) => {
    await pane.start(s.command());
    await pane.waitFor(PROMPT);
    await pane.keys("Enter");
    assert.equal(await exitCode(s.exitFile), 0, await pane.screen());
    assert.equal((await runStates(s.env.stateDir))[0].profile, "alpha");
  });
});

Deno.test("the picker on a terminal: Ctrl+C cancels with exit 130 and writes no run", async () => {
  await withPane(async (pane, s) => {
    await pane.start(s.command());
    await pane.waitFor(PROMPT);
    await pane.keys("C-c");
    assert.equal(await exitCode(s.exitFile), 130, await pane.screen());
    assert.deepEqual(await runStates(s.env.stateDir), []);
    assert.match(await pane.screen(), /nothing was written/);
  });
});

Deno.test("no prompt on a terminal when a parent agent is set or stdin is not a terminal", async () => {
  await withPane(async (pane, s) => {
    await pane.start(`export PARENT_AGENT=codex; ${s.command()}`);
    assert.equal(await exitCode(s.exitFile), 0, await pane.screen());
    assert.doesNotMatch(await pane.screen(), PROMPT);
    assert.equal((await runStates(s.env.stateDir))[0].caller, "codex", "the parent agent reached spot");
  });
  await withPane(async (pane, s) => {
    await pane.start(s.command("< /dev/null"));
    assert.equal(await exitCode(s.exitFile), 0, await pane.screen());
    assert.doesNotMatch(await pane.screen(), PROMPT);
    assert.equal((await runStates(s.env.stateDir))[0].profile, "alpha", "routed by difficulty instead");
  });
});

Deno.test("no prompt without a terminal: piped prepare routes by difficulty and finishes", async () => {
  const s = await setup();
  const r = await spot(s.env, s.repo, "prepare", "--task", s.taskFile);
  assert.equal(r.code, 0, r.stderr);
  assert.equal(r.json.profile, "alpha");
  await Deno.remove(s.env.dir, { recursive: true });
});
