import assert from "node:assert/strict";
import { join } from "node:path";
import { spawnDetached, spawnProcess } from "./spawn.ts";

const SH = "/bin/sh";
const CAT = "/bin/cat";

Deno.test("spawnProcess() captures the exit code, stdout and stderr of a finished process", async () => {
  const r = await spawnProcess([SH, "-c", "echo hello; echo oops >&2; exit 3"], { env: {} });
  assert.equal(r.exitCode, 3);
  assert.equal(r.stdout, "hello\n");
  assert.equal(r.stderr, "oops\n");
  assert.equal(r.signal, null);
  assert.equal(r.timedOut, false);
  assert.equal(r.cancelled, false);
  assert.equal(r.spawnError, undefined);
  assert.equal(typeof r.pid, "number");
  assert.deepEqual(r.argv, [SH, "-c", "echo hello; echo oops >&2; exit 3"]);
});

Deno.test("spawnProcess() reports exit code 0 for a successful process", async () => {
  const r = await spawnProcess([SH, "-c", "true"], { env: {} });
  assert.equal(r.exitCode, 0);
  assert.equal(r.stdout, "");
});

Deno.test("spawnProcess() runs in the given cwd", async () => {
  const dir = await Deno.realPath(await Deno.makeTempDir());
  try {
    const r = await spawnProcess([SH, "-c", "pwd -P"], { env: {}, cwd: dir });
    assert.equal(r.stdout.trim(), dir);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("spawnProcess() gives the child only the env it was passed, not the parent's", async () => {
  const name = "SPOT_SPAWN_TEST_PARENT_ONLY";
  Deno.env.set(name, "leaked");
  try {
    const r = await spawnProcess(["/usr/bin/env"], { env: { GIVEN: "yes" } });
    assert.equal(r.exitCode, 0, r.stderr);
    assert.equal(r.stdout, "GIVEN=yes\n");
    const viaShell = await spawnProcess([SH, "-c", `echo "[$${name}][$GIVEN]"`], { env: { GIVEN: "yes" } });
    assert.equal(viaShell.stdout, "[][yes]\n");
  } finally {
    Deno.env.delete(name);
  }
});

Deno.test("spawnProcess() closes stdin by default, so cat returns at once with no output", async () => {
  const started = Date.now();
  const r = await spawnProcess([CAT], { env: {}, timeoutMs: 5_000 });
  assert.equal(r.timedOut, false);
  assert.equal(r.exitCode, 0);
  assert.equal(r.stdout, "");
  assert.ok(Date.now() - started < 1_500, `cat took ${Date.now() - started}ms`);
});

Deno.test("spawnProcess() feeds stdinText to the child and closes stdin", async () => {
  const r = await spawnProcess([CAT], { env: {}, stdinText: "line one\nline two", timeoutMs: 5_000 });
  assert.equal(r.timedOut, false);
  assert.equal(r.stdout, "line one\nline two");
});

Deno.test("spawnProcess() feeds an empty stdinText as an immediately closed stdin", async () => {
  const r = await spawnProcess([CAT], { env: {}, stdinText: "", timeoutMs: 5_000 });
  assert.equal(r.timedOut, false);
  assert.equal(r.exitCode, 0);
  assert.equal(r.stdout, "");
});

Deno.test("spawnProcess() feeds stdinFile to the child", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const file = join(dir, "in.txt");
    const text = "from a file\n".repeat(5_000);
    await Deno.writeTextFile(file, text);
    const r = await spawnProcess([CAT], { env: {}, stdinFile: file, timeoutMs: 5_000 });
    assert.equal(r.timedOut, false);
    assert.equal(r.stdout.length, text.length);
    assert.equal(r.stdout, text);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("spawnProcess() caps stdout, keeps the first N chars and sets stdoutTruncated", async () => {
  const r = await spawnProcess([SH, "-c", "printf abcdefghij; printf 0123456789 >&2"], {
    env: {},
    maxOutputChars: 4,
  });
  assert.equal(r.stdout, "abcd");
  assert.equal(r.stdoutTruncated, true);
  assert.equal(r.stderr, "0123");
  assert.equal(r.stderrTruncated, true);
});

Deno.test("spawnProcess() caps a large multi-chunk stdout to its first N chars", async () => {
  const r = await spawnProcess([SH, "-c", "i=0; while [ $i -lt 3000 ]; do echo line$i; i=$((i+1)); done"], {
    env: {},
    maxOutputChars: 1_000,
  });
  assert.equal(r.exitCode, 0);
  assert.equal(r.stdout.length, 1_000);
  assert.ok(r.stdout.startsWith("line0\nline1\nline2\n"));
  assert.equal(r.stdoutTruncated, true);
});

Deno.test("spawnProcess() does not mark output truncated when it is exactly the cap", async () => {
  const r = await spawnProcess([SH, "-c", "printf abcdefghij"], { env: {}, maxOutputChars: 10 });
  assert.equal(r.stdout, "abcdefghij");
  assert.equal(r.stdoutTruncated, false);
  assert.equal(r.stderrTruncated, false);
});

Deno.test("spawnProcess() calls onStdoutLine for each line in order, including a last line without newline", async () => {
  const lines: string[] = [];
  const errLines: string[] = [];
  const r = await spawnProcess(
    [SH, "-c", "printf 'one\\ntw'; sleep 0.1; printf 'o\\r\\nthree'; printf 'e1\\ne2' >&2"],
    {
      env: { PATH: "/usr/bin:/bin" },
      onStdoutLine: (l) => lines.push(l),
      onStderrLine: (l) => errLines.push(l),
    },
  );
  assert.equal(r.exitCode, 0);
  assert.deepEqual(lines, ["one", "two", "three"]);
  assert.deepEqual(errLines, ["e1", "e2"]);
});

Deno.test("spawnProcess() still calls onStdoutLine for lines beyond the capture cap", async () => {
  const lines: string[] = [];
  const r = await spawnProcess([SH, "-c", "printf 'aaaa\\nbbbb\\ncccc\\n'"], {
    env: {},
    maxOutputChars: 5,
    onStdoutLine: (l) => lines.push(l),
  });
  assert.equal(r.stdout, "aaaa\n");
  assert.deepEqual(lines, ["aaaa", "bbbb", "cccc"]);
});

Deno.test("spawnProcess() reports onSpawn with the pid of the started process", async () => {
  let seen: number | undefined;
  const r = await spawnProcess([SH, "-c", "echo $$"], { env: {}, onSpawn: (pid) => seen = pid });
  assert.equal(seen, r.pid);
  assert.equal(Number(r.stdout.trim()), r.pid);
});

Deno.test("spawnProcess() returns spawnError and a null exitCode for a missing binary instead of throwing", async () => {
  const r = await spawnProcess(["/nonexistent/spot-no-such-binary", "x"], { env: {} });
  assert.equal(typeof r.spawnError, "string");
  assert.ok(r.spawnError!.length > 0);
  assert.equal(r.exitCode, null);
  assert.equal(r.pid, null);
  assert.equal(r.timedOut, false);
  assert.equal(r.stdout, "");
});

/** The process group of a live pid, from /proc (the field after the state). */
function pgrpOf(stat: string): number {
  return Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[2]);
}

Deno.test("spawnProcess() starts a child in a group of its own unless told group: false", async () => {
  const ours = pgrpOf(Deno.readTextFileSync("/proc/self/stat"));
  const grouped = await spawnProcess(["sh", "-c", "cat /proc/$$/stat"], { env: {} });
  const plain = await spawnProcess(["sh", "-c", "cat /proc/$$/stat"], { env: {}, group: false });
  assert.equal(pgrpOf(grouped.stdout), grouped.pid, "the default child leads its own group");
  assert.equal(pgrpOf(plain.stdout), ours, "group: false keeps the child in spot's group");
});

Deno.test("spawnProcess() with group: false still stops a child at its timeout", async () => {
  const r = await spawnProcess(["sleep", "30"], { env: {}, group: false, timeoutMs: 200 });
  assert.equal(r.timedOut, true);
  assert.equal(r.signal, "SIGTERM");
  assert.ok(r.durationMs < 5_000, `stopped after ${r.durationMs} ms`);
});

Deno.test("spawnDetached() with stderrFile appends the program's stderr there, under the program's own pid", async () => {
  const dir = await Deno.makeTempDir();
  const log = join(dir, "coordinator.log");
  await Deno.writeTextFile(log, "earlier\n");
  const started = spawnDetached(["sh", "-c", `echo "pid $$" >&2; echo done > ${join(dir, "done")}`], {
    env: { PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin" },
    stderrFile: log,
  });
  for (let i = 0; i < 100 && !(await Deno.stat(join(dir, "done")).catch(() => null)); i++) {
    await new Promise((r) => setTimeout(r, 50));
  }
  assert.equal(await Deno.readTextFile(log), `earlier\npid ${started.pid}\n`);
  await Deno.remove(dir, { recursive: true });
});
