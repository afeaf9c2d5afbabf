import assert from "node:assert/strict";
import { join, relative } from "node:path";
import { which } from "./which.ts";

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
