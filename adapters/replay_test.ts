import { deepStrictEqual, equal, ok } from "node:assert/strict";
import { join } from "node:path";
import { getAdapter } from "./mod.ts";
import { loadAdapter } from "./load.ts";

import { type LaunchSpec, newParseState, type WorkerOutcome } from "./types.ts";

const piAdapter = (await loadAdapter("pi"))!;
const replayAdapter = (await loadAdapter("replay"))!;

function spec(root: string, overrides: Partial<LaunchSpec> = {}): LaunchSpec {
  return {
    runId: "r7",
    phase: "run",
    worktree: join(root, "tree"),
    runDir: root,
    homeDir: join(root, "home"),
    binary: replayAdapter.defaultBinary,
    profile: { name: "scripted", adapter: "replay", provider: "replay", model: join(root, "episode.jsonl") },
    promptFile: join(root, "prompt.md"),
    baseEnv: { PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin" },
    ...overrides,
  };
}

Deno.test("getAdapter knows pi and replay, and nothing an object inherits", () => {
  equal(getAdapter("pi"), piAdapter);
  equal(getAdapter("replay"), replayAdapter);
  equal(getAdapter("crush"), undefined);
  equal(getAdapter("toString"), undefined);
});

Deno.test("replayAdapter points at the executable shim", async () => {
  ok(replayAdapter.defaultBinary.endsWith("/replay/spot-replay"));
  const info = await Deno.stat(replayAdapter.defaultBinary);
  ok(info.isFile && (info.mode ?? 0) & 0o111, "spot-replay is executable");
});

Deno.test("replayAdapter plans the episode, the phase and the prompt on stdin", () => {
  const plan = replayAdapter.plan(
    spec("/r", { phase: "self-review", homeDir: "/r/home", binary: "/bin/spot-replay" }),
  );
  deepStrictEqual(plan.argv, [
    "/bin/spot-replay",
    ...["--episode", "/r/episode.jsonl", "--phase", "self-review", "--session-dir", "/r/replay-session"],
  ]);
  equal(plan.stdinFile, "/r/prompt.md");
  deepStrictEqual(plan.files, []);
  deepStrictEqual(plan.env, {
    PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin",
    HOME: "/r/home",
    SPOT_DENO: Deno.execPath(),
    NO_COLOR: "1",
  });
});

Deno.test("replayAdapter resumes a session by id and plays the episode's follow-up lines", () => {
  const plan = replayAdapter.plan(spec("/r", { binary: "/bin/spot-replay", resumeSession: "s-1" }));
  deepStrictEqual(plan.argv.slice(3), [
    ...["--phase", "follow-up", "--session-dir", "/r/replay-session", "--session", "s-1"],
  ]);
});

async function replay(episode: string, phase: LaunchSpec["phase"], prompt: string): Promise<WorkerOutcome> {
  const root = await Deno.makeTempDir({ prefix: "spot-replay-adapter-" });
  try {
    const s = spec(root, { phase });
    await Deno.mkdir(s.worktree);
    await Deno.mkdir(s.homeDir);
    await Deno.writeTextFile(s.profile.model, episode);
    await Deno.writeTextFile(s.promptFile, prompt);
    const plan = replayAdapter.plan(s);
    const [binary, ...args] = plan.argv;
    const stdin = await Deno.open(plan.stdinFile!);
    const child = new Deno.Command(binary, {
      args,
      cwd: s.worktree,
      env: plan.env,
      clearEnv: true,
      stdin: "piped",
      stdout: "piped",
      stderr: "piped",
    }).spawn();
    await stdin.readable.pipeTo(child.stdin);
    const out = await child.output();
    const state = newParseState();
    for (const line of new TextDecoder().decode(out.stdout).split("\n")) replayAdapter.parseLine(line, state);
    const stderrTail = new TextDecoder().decode(out.stderr);
    const exit = { exitCode: out.code, signal: out.signal, timedOut: false, cancelled: false, stderrTail };
    return replayAdapter.finish(exit, state);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
}

Deno.test("replayAdapter runs the real worker and reads its stream like pi's", async () => {
  const episode = [
    `{"op":"write","path":"a.txt","content":"a"}`,
    `{"op":"usage","input":30,"output":7,"cacheRead":3,"cacheWrite":1,"costUsd":0.02}`,
    `{"op":"say","text":"checked {{diffSha256}}","phase":"self-review"}`,
  ].join("\n");
  const sha = "f".repeat(64);
  const outcome = await replay(episode, "self-review", `diffSha256: ${sha}\n`);
  deepStrictEqual(outcome, {
    ok: true,
    text: `checked ${sha}`,
    usage: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
    costUsd: 0,
  });
  const run = await replay(episode, "run", "");
  equal(run.ok, true);
  deepStrictEqual(run.usage, { input: 30, output: 7, cacheRead: 3, cacheWrite: 1 });
  equal(run.costUsd, 0.02);
});

Deno.test("replayAdapter classifies a scripted failure and a scripted crash", async () => {
  const quota = await replay(`{"op":"fail","message":"429 insufficient_quota"}`, "run", "");
  deepStrictEqual([quota.failure?.code, quota.failure?.class], ["quota", "permanent"]);
  const crash = await replay(`{"op":"say","text":"hm"}\n{"op":"exit","code":9}`, "run", "");
  deepStrictEqual([crash.failure?.code, crash.failure?.message], ["cli_crash", "Worker exited with code 9"]);
  // exit 0 without pi's closing agent_end is a turn cut short, not a success.
  const silent = await replay(`{"op":"exit","code":0}`, "run", "");
  deepStrictEqual([silent.ok, silent.failure?.code], [false, "cli_crash"]);
  ok(silent.failure?.message.includes("without finishing its turn"));
  const bad = await replay(`{"op":"nope"}`, "run", "");
  equal(bad.failure?.code, "cli_crash");
  ok(bad.failure?.message.includes(`Unknown op "nope"`));
});

Deno.test("the replay plan names every module the replay worker imports, for spot to compile ahead", async () => {
  const { replayProgram } = await import("./clis/replay.ts");
  const program = replayProgram()!;
  const plan = replayAdapter.plan(spec("/tmp/r7"));
  deepStrictEqual(plan.denoPrograms, [program]);
  // The worker's static import graph, as Deno sees it: a module left off would change without a new stamp.
  const info = await new Deno.Command(Deno.execPath(), {
    args: ["info", "--json", "--no-config", program.entry],
    stdout: "piped",
    stderr: "piped",
  }).output();
  ok(info.success, new TextDecoder().decode(info.stderr));
  const graph = JSON.parse(new TextDecoder().decode(info.stdout)) as { modules: { local?: string }[] };
  const local = graph.modules.map((m) => m.local).filter((p): p is string => p !== undefined).sort();
  deepStrictEqual(local, [program.entry, ...program.modules].sort());
  // Another binary than the shim is not spot's program.
  equal(
    replayAdapter.plan(spec("/tmp/r7", { binary: "/usr/local/bin/spot-replay" })).denoPrograms,
    undefined,
  );
});
