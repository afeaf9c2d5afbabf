import { deepStrictEqual, equal, match, ok, rejects } from "node:assert/strict";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "./replay_worker.ts";

const SHIM = fileURLToPath(new URL("./spot-replay", import.meta.url));
const SHA = "0123456789abcdef".repeat(4);

type Line = Record<string, unknown> & { type: string };

interface Played {
  code: number;
  lines: Line[];
  stdout: string;
  stderr: string;
}

/** Runs the real executable in `dir` with an episode; `prompt` goes on stdin when given. */
async function play(dir: string, episode: string, phase = "run", prompt?: string): Promise<Played> {
  const file = join(dir, "episode.jsonl");
  await Deno.writeTextFile(file, episode);
  return await spawn(dir, ["--episode", file, "--phase", phase], prompt);
}

async function spawn(dir: string, args: string[], prompt?: string): Promise<Played> {
  const child = new Deno.Command(SHIM, {
    args,
    cwd: dir,
    env: { SPOT_DENO: Deno.execPath() },
    stdin: prompt === undefined ? "null" : "piped",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  if (prompt !== undefined) {
    const writer = child.stdin.getWriter();
    await writer.write(new TextEncoder().encode(prompt));
    await writer.close();
  }
  const out = await child.output();
  const stdout = new TextDecoder().decode(out.stdout);
  const lines = stdout.split("\n").filter((l) => l !== "").map((l) => JSON.parse(l) as Line);
  return { code: out.code, lines, stdout, stderr: new TextDecoder().decode(out.stderr) };
}

async function inTempDir(fn: (dir: string) => Promise<void>): Promise<void> {
  const dir = await Deno.makeTempDir({ prefix: "spot-replay-test-" });
  try {
    await fn(dir);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

const ofType = (lines: Line[], type: string) => lines.filter((l) => l.type === type);
const messageOf = (line: Line) => line.message as Record<string, unknown>;

const episode = (...ops: unknown[]) => ops.map((op) => JSON.stringify(op)).join("\n") + "\n";

Deno.test("replay writes and deletes files and streams pi events", () =>
  inTempDir(async (dir) => {
    await Deno.writeTextFile(join(dir, "old.txt"), "bye");
    const run = await play(
      dir,
      episode(
        { op: "write", path: "src/deep/new.ts", content: "export {};\n" },
        { op: "delete", path: "old.txt" },
        { op: "usage", input: 100, output: 20, cacheRead: 5, costUsd: 0.25 },
        { op: "say", text: "first" },
        { op: "say", text: "all done" },
      ),
    );
    equal(run.code, 0, run.stderr);
    equal(await Deno.readTextFile(join(dir, "src/deep/new.ts")), "export {};\n");
    await rejects(Deno.stat(join(dir, "old.txt")), Deno.errors.NotFound);

    deepStrictEqual(run.lines.slice(0, 3).map((l) => l.type), ["session", "agent_start", "turn_start"]);
    equal(run.lines[0].cwd, await Deno.realPath(dir));
    const results = ofType(run.lines, "tool_execution_end");
    deepStrictEqual(results.map((l) => [l.toolName, l.isError]), [["write", false], ["delete", false]]);
    const usage = ofType(run.lines, "message_end").map((l) => messageOf(l).usage as Record<string, unknown>)
      .find((u) => u.input === 100);
    deepStrictEqual(usage?.cost, { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0.25 });
    equal(usage?.totalTokens, 125);

    const end = run.lines.at(-1)!;
    equal(end.type, "agent_end");
    const final = (end.messages as Record<string, unknown>[])[0];
    equal(final.stopReason, "stop");
    deepStrictEqual(final.content, [{ type: "text", text: "all done" }]);
    equal(final.model, "episode.jsonl");
  }));

Deno.test("replay exec runs argv in the worktree and reports failures", () =>
  inTempDir(async (dir) => {
    const run = await play(
      dir,
      episode(
        { op: "exec", argv: ["sh", "-c", "pwd; echo oops >&2; exit 4"] },
        { op: "exec", argv: ["sh", "-c", "echo fine"] },
        { op: "exec", argv: ["spot-no-such-command-xyz"] },
      ),
    );
    equal(run.code, 0, run.stderr);
    const calls = ofType(run.lines, "tool_execution_start");
    deepStrictEqual(calls[0].args, { command: "sh -c pwd; echo oops >&2; exit 4" });
    const ends = ofType(run.lines, "tool_execution_end");
    const text = (l: Line) => ((l.result as { content: { text: string }[] }).content[0].text);
    deepStrictEqual(ends.map((l) => [l.toolName, l.isError]), [["bash", true], ["bash", false], [
      "bash",
      true,
    ]]);
    ok(text(ends[0]).includes(await Deno.realPath(dir)));
    ok(text(ends[0]).includes("oops"));
    equal(text(ends[1]), "fine\n");
  }));

Deno.test("replay sleep waits between the steps around it (the graph bench's sleeping workers)", () =>
  inTempDir(async (dir) => {
    const run = await play(
      dir,
      episode({ op: "say", text: "a" }, { op: "sleep", ms: 400 }, { op: "say", text: "b" }),
    );
    equal(run.code, 0, run.stderr);
    const said = ofType(run.lines, "message_end").map((l) => messageOf(l).timestamp as number);
    equal(said.length, 2);
    ok(said[1] - said[0] >= 400, `the second message came ${said[1] - said[0]} ms after the first`);
  }));

Deno.test("replay exit stops at once with its code", () =>
  inTempDir(async (dir) => {
    const run = await play(
      dir,
      episode({ op: "say", text: "a" }, { op: "exit", code: 7 }, {
        op: "write",
        path: "late.txt",
        content: "",
      }),
    );
    equal(run.code, 7);
    equal(ofType(run.lines, "agent_end").length, 0);
    await rejects(Deno.stat(join(dir, "late.txt")), Deno.errors.NotFound);
  }));

Deno.test("replay fail ends the turn with an error message and exit 0 like pi", () =>
  inTempDir(async (dir) => {
    const run = await play(
      dir,
      episode({ op: "fail", message: "429 Rate limit hit" }, { op: "say", text: "no" }),
    );
    equal(run.code, 0, run.stderr);
    const errors = ofType(run.lines, "message_end").map(messageOf).filter((m) => m.stopReason === "error");
    equal(errors.length, 1);
    equal(errors[0].errorMessage, "429 Rate limit hit");
    const end = run.lines.at(-1)!;
    equal(end.type, "agent_end");
    equal((end.messages as Record<string, unknown>[])[0].stopReason, "error");
    ok(!run.stdout.includes(`"no"`));
  }));

Deno.test("replay fills templates from the prompt on stdin", () =>
  inTempDir(async (dir) => {
    const ops = episode(
      { op: "say", text: "reviewed {{diffSha256}} of {{runId}}", phase: "self-review" },
      { op: "write", path: "review.txt", content: "sha {{diffSha256}}", phase: "self-review" },
    );
    const run = await play(dir, ops, "self-review", `Please review.\ndiffSha256: ${SHA}\nrunId: r-9\n`);
    equal(run.code, 0, run.stderr);
    equal(await Deno.readTextFile(join(dir, "review.txt")), `sha ${SHA}`);
    const final = (run.lines.at(-1)!.messages as { content: { text: string }[] }[])[0];
    equal(final.content[0].text, `reviewed ${SHA} of r-9`);

    const bare = await play(dir, ops, "self-review");
    equal(bare.code, 0, bare.stderr);
    equal(await Deno.readTextFile(join(dir, "review.txt")), "sha {{diffSha256}}");
  }));

Deno.test("replay plays only the requested phase", () =>
  inTempDir(async (dir) => {
    const ops = episode(
      { op: "write", path: "run.txt", content: "" },
      { op: "write", path: "revise.txt", content: "", phase: "revise" },
    );
    equal((await play(dir, ops, "revise")).code, 0);
    await Deno.stat(join(dir, "revise.txt"));
    await rejects(Deno.stat(join(dir, "run.txt")), Deno.errors.NotFound);
  }));

Deno.test("replay rejects a bad episode with exit 2 before playing anything", () =>
  inTempDir(async (dir) => {
    const run = await play(dir, `{"op":"write","path":"x.txt","content":""}\n{"op":"jump"}\n`);
    equal(run.code, 2);
    equal(run.stdout, "");
    match(run.stderr, /^spot-replay: .*episode\.jsonl:2: Unknown op "jump"/);
    await rejects(Deno.stat(join(dir, "x.txt")), Deno.errors.NotFound);
  }));

Deno.test("replay exits 2 on missing or unknown arguments", () =>
  inTempDir(async (dir) => {
    const file = join(dir, "e.jsonl");
    await Deno.writeTextFile(file, "");
    const missing = join(dir, "missing.jsonl");
    const cases = [
      [],
      ["--episode", file],
      ["--episode", file, "--phase", "deploy"],
      ["--verbose"],
      ["--episode", missing, "--phase", "run"],
    ];
    for (const args of cases) {
      const run = await spawn(dir, args);
      equal(run.code, 2, `args ${JSON.stringify(args)}`);
      match(run.stderr, /^spot-replay: /);
    }
  }));

Deno.test("replay resumes a session it kept, plays the follow-up lines, and refuses an unknown one", () =>
  inTempDir(async (dir) => {
    const file = join(dir, "e.jsonl");
    await Deno.writeTextFile(
      file,
      episode({ op: "say", text: "first" }, { op: "say", text: "again", phase: "follow-up" }),
    );
    const sessions = join(dir, "sessions");
    const first = await spawn(dir, ["--episode", file, "--phase", "run", "--session-dir", sessions], "one");
    equal(first.code, 0, first.stderr);
    const id = String(ofType(first.lines, "session")[0].id);
    const args = ["--episode", file, "--phase", "follow-up", "--session-dir", sessions, "--session", id];
    const next = await spawn(dir, args, "two");
    equal(next.code, 0, next.stderr);
    equal(ofType(next.lines, "session")[0].id, id);
    const said = ofType(next.lines, "message_end").map((l) => JSON.stringify(messageOf(l).content)).join();
    ok(said.includes("again") && !said.includes("first"), said);
    const kept = (await Deno.readTextFile(join(sessions, `${id}.jsonl`))).trim().split("\n").map((l) =>
      JSON.parse(l).prompt
    );
    deepStrictEqual(kept, ["one", "two"]);
    const unknown = await spawn(dir, [...args.slice(0, -1), "no-such-id"], "three");
    equal(unknown.code, 2);
    match(unknown.stderr, /No session found matching "no-such-id"/);
  }));

Deno.test("parseArgs names the problem", () => {
  deepStrictEqual(parseArgs(["--phase", "revise", "--episode", "/e.jsonl"]), {
    episode: "/e.jsonl",
    phase: "revise",
  });
  equal(parseArgs(["--episode"]), `Missing value for "--episode"`);
  equal(parseArgs(["-x", "1"]), `Unknown argument "-x"`);
  equal(parseArgs(["--episode", "/e"]), `Missing argument "--phase"`);
});
