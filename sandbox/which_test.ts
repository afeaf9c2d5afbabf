import assert from "node:assert/strict";
import { join, relative } from "node:path";
import { sessionArgv, which } from "./which.ts";
import { spawnProcess } from "./spawn.ts";

async function withDirs(count: number, fn: (dirs: string[]) => Promise<void> | void): Promise<void> {
  const root = await Deno.makeTempDir({ prefix: "spot-which-" });
  try {
    const dirs: string[] = [];
    for (let i = 0; i < count; i++) {
      const dir = join(root, `d${i}`);
      await Deno.mkdir(dir);
      dirs.push(dir);
    }
    await fn(dirs);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
}

async function file(path: string, mode: number): Promise<string> {
  await Deno.writeTextFile(path, "#!/bin/sh\nexit 0\n");
  await Deno.chmod(path, mode);
  return path;
}

Deno.test("which() finds an executable in a PATH directory and returns its absolute path", async () => {
  await withDirs(1, async ([d]) => {
    const tool = await file(join(d, "tool"), 0o755);
    assert.equal(which("tool", d), tool);
  });
});

Deno.test("which() returns null when no PATH directory holds the name", async () => {
  await withDirs(2, ([a, b]) => {
    assert.equal(which("tool", [a, b].join(":")), null);
  });
});

Deno.test("which() returns the first match in PATH order", async () => {
  await withDirs(2, async ([a, b]) => {
    const first = await file(join(a, "tool"), 0o755);
    const second = await file(join(b, "tool"), 0o755);
    assert.equal(which("tool", `${a}:${b}`), first);
    assert.equal(which("tool", `${b}:${a}`), second);
  });
});

Deno.test("which() skips a non-executable file and keeps looking", async () => {
  await withDirs(2, async ([a, b]) => {
    await file(join(a, "tool"), 0o644);
    const good = await file(join(b, "tool"), 0o755);
    assert.equal(which("tool", `${a}:${b}`), good);
    assert.equal(which("tool", a), null);
  });
});

Deno.test("which() accepts a file with only one execute bit set", async () => {
  await withDirs(1, async ([d]) => {
    const tool = await file(join(d, "tool"), 0o700);
    assert.equal(which("tool", d), tool);
  });
});

Deno.test("which() skips a directory that has the command's name", async () => {
  await withDirs(2, async ([a, b]) => {
    await Deno.mkdir(join(a, "tool"));
    const good = await file(join(b, "tool"), 0o755);
    assert.equal(which("tool", `${a}:${b}`), good);
    assert.equal(which("tool", a), null);
  });
});

Deno.test("which() ignores empty and relative PATH entries", async () => {
  await withDirs(1, async ([d]) => {
    await file(join(d, "tool"), 0o755);
    const rel = relative(Deno.cwd(), d);
    assert.ok(!rel.startsWith("/"), rel);
    assert.equal(which("tool", `::${rel}:`), null);
    assert.equal(which("tool", `::${rel}:${d}`), join(d, "tool"), "near miss: the absolute entry is used");
  });
});

Deno.test("which() checks an absolute name as it is, without searching PATH", async () => {
  await withDirs(2, async ([a, b]) => {
    const exe = await file(join(a, "tool"), 0o755);
    const plain = await file(join(a, "data"), 0o644);
    await file(join(b, "data"), 0o755);
    assert.equal(which(exe, ""), exe);
    assert.equal(which(plain, b), null);
    assert.equal(which(join(a, "missing"), b), null);
  });
});

Deno.test("which() refuses a relative name with a slash instead of resolving it", async () => {
  await withDirs(1, async ([d]) => {
    await Deno.mkdir(join(d, "bin"));
    await file(join(d, "bin", "tool"), 0o755);
    assert.equal(which("bin/tool", d), null);
    assert.equal(which("./tool", d), null);
  });
});

Deno.test("which() follows a symlink to an executable and returns the link path", async () => {
  await withDirs(2, async ([a, b]) => {
    const target = await file(join(a, "real"), 0o755);
    await Deno.symlink(target, join(b, "tool"));
    assert.equal(which("tool", b), join(b, "tool"));
    await Deno.symlink(join(a, "gone"), join(b, "dangling"));
    assert.equal(which("dangling", b), null);
  });
});

Deno.test("which() finds a real system binary on a typical PATH", () => {
  const found = which("sh", "/nonexistent:/usr/bin:/bin");
  assert.ok(found === "/usr/bin/sh" || found === "/bin/sh", String(found));
});

// A grouped child started through `setsid` (sessionArgv): the same session, group, pid and errors as before.

const PATH = "/usr/bin:/bin";

/** The pid, process group and session of a /proc/<pid>/stat line. */
function ids(stat: string): { pid: number; pgrp: number; session: number } {
  const rest = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return { pid: Number(stat.split(" ")[0]), pgrp: Number(rest[2]), session: Number(rest[3]) };
}

Deno.test("sessionArgv() runs the program, resolved on the env's PATH, through setsid", () => {
  const argv = sessionArgv(["sh", "-c", "true"], { PATH });
  assert.ok(argv, "a process with unscoped --allow-run takes setsid");
  assert.match(argv[0], /^\/(usr\/)?bin\/setsid$/);
  assert.match(argv[1], /^\/(usr\/)?bin\/sh$/);
  assert.deepEqual(argv.slice(2), ["-c", "true"]);
  assert.equal(sessionArgv(["sh"], {}), null, "no PATH: Deno resolves the name, as before");
  assert.equal(sessionArgv(["/nonexistent/spot-no-such"], { PATH }), null);
});

Deno.test("a grouped child through setsid leads its own session and group under the pid spawnProcess reports", async () => {
  const ours = ids(Deno.readTextFileSync("/proc/self/stat"));
  const r = await spawnProcess(["sh", "-c", "cat /proc/$$/stat"], { env: { PATH } });
  const child = ids(r.stdout);
  assert.equal(child.pid, r.pid, "setsid execs in place: the pid is the program's");
  assert.equal(child.pgrp, r.pid);
  assert.equal(child.session, r.pid);
  assert.notEqual(child.session, ours.session);
});

Deno.test("a program missing on PATH is still a spawn error, not setsid's exit 127", async () => {
  const r = await spawnProcess(["spot-no-such-program-here"], { env: { PATH } });
  assert.equal(r.exitCode, null);
  assert.equal(typeof r.spawnError, "string");
});

Deno.test("a child cancelled the instant it starts is stopped, before or after setsid made its group", async () => {
  for (let i = 0; i < 20; i++) {
    const stop = new AbortController();
    const r = await spawnProcess(["sleep", "30"], {
      env: { PATH },
      signal: stop.signal,
      timeoutMs: 30_000,
      // A SIGTERM that missed would leave the child to this SIGKILL, 20 s later.
      killGraceMs: 20_000,
      onSpawn: () => stop.abort(),
    });
    assert.equal(r.cancelled, true);
    assert.equal(r.signal, "SIGTERM", `round ${i}: the SIGTERM missed the child`);
    assert.ok(r.durationMs < 10_000, `round ${i}: the child outlived its cancel by ${r.durationMs} ms`);
  }
});

Deno.test("a process with scoped --allow-run (a step) keeps Deno's detached start", async () => {
  const dir = await Deno.makeTempDir({ prefix: "spot-session-" });
  try {
    const script = `${dir}/s.ts`;
    const session = new URL("./which.ts", import.meta.url).href;
    await Deno.writeTextFile(
      script,
      `import { sessionArgv } from ${JSON.stringify(session)};\n` +
        `console.log(JSON.stringify(sessionArgv(["/bin/sh"], {})));\n`,
    );
    const run = async (allowRun: string) => {
      const out = await new Deno.Command(Deno.execPath(), {
        args: ["run", "--no-prompt", "--no-config", "--no-lock", "--allow-read", allowRun, script],
        stdin: "null",
      }).output();
      return new TextDecoder().decode(out.stdout).trim() + new TextDecoder().decode(out.stderr).trim();
    };
    assert.equal(await run("--allow-run=/bin/sh,/usr/bin/setsid,/bin/setsid"), "null");
    assert.notEqual(await run("--allow-run"), "null", "near miss: unscoped --allow-run takes setsid");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
