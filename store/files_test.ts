import assert from "node:assert/strict";
import { join } from "node:path";
import { enableTimings, timingsTable } from "../base/timings.ts";
import { appendJsonLine, readJsonFile, readJsonLines, writeJsonAtomic, writeTextAtomic } from "./files.ts";

async function withDir(fn: (dir: string) => Promise<void>): Promise<void> {
  const dir = await Deno.makeTempDir({ prefix: "spot-files-" });
  try {
    await fn(dir);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

async function names(dir: string): Promise<string[]> {
  const out: string[] = [];
  for await (const entry of Deno.readDir(dir)) out.push(entry.name);
  return out.sort();
}

Deno.test("writeJsonAtomic() writes pretty JSON with a trailing newline", async () => {
  await withDir(async (dir) => {
    const path = join(dir, "state.json");
    await writeJsonAtomic(path, { a: 1, b: [true] });
    assert.equal(await Deno.readTextFile(path), '{\n  "a": 1,\n  "b": [\n    true\n  ]\n}\n');
  });
});

Deno.test("writeJsonAtomic() replaces existing content and leaves no temp files behind", async () => {
  await withDir(async (dir) => {
    const path = join(dir, "state.json");
    await Deno.writeTextFile(path, JSON.stringify({ old: true, padding: "x".repeat(1_000) }));
    await writeJsonAtomic(path, { status: "running" });
    await writeJsonAtomic(path, { status: "verifying" });
    assert.deepEqual(await readJsonFile(path), { status: "verifying" });
    assert.deepEqual(await names(dir), ["state.json"]);
  });
});

Deno.test("writeTextAtomic() leaves no temp files after many concurrent writers", async () => {
  await withDir(async (dir) => {
    const path = join(dir, "report.md");
    await Promise.all(Array.from({ length: 20 }, (_, i) => writeTextAtomic(path, `version ${i}\n`)));
    assert.match(await Deno.readTextFile(path), /^version \d+\n$/);
    assert.deepEqual(await names(dir), ["report.md"]);
  });
});

Deno.test("writeTextAtomic() creates the file with mode 0600", async () => {
  await withDir(async (dir) => {
    const path = join(dir, "secret.json");
    await writeTextAtomic(path, "{}");
    assert.equal((await Deno.stat(path)).mode! & 0o777, 0o600);
  });
});

Deno.test("writeJsonAtomic() leaves mode 0600 even when it replaces a 0644 file", async () => {
  await withDir(async (dir) => {
    const path = join(dir, "state.json");
    await Deno.writeTextFile(path, "{}", { mode: 0o644 });
    await Deno.chmod(path, 0o644);
    await writeJsonAtomic(path, { x: 1 });
    assert.equal((await Deno.stat(path)).mode! & 0o777, 0o600);
  });
});

Deno.test("writeTextAtomic() throws when the directory does not exist", async () => {
  await withDir(async (dir) => {
    await assert.rejects(writeTextAtomic(join(dir, "missing", "x.json"), "{}"), Deno.errors.NotFound);
  });
});

// Regression (fixed): store/files.ts writeTextAtomic() does not remove its `.<uuid>.tmp` file when the final
// rename fails (here: the target is a non-empty directory), so a failed write leaks a temp file.
Deno.test({
  name: "writeTextAtomic() removes its temp file when the rename fails",
  fn: async () => {
    await withDir(async (dir) => {
      const target = join(dir, "state.json");
      await Deno.mkdir(target);
      await Deno.writeTextFile(join(target, "keep"), "x");
      await assert.rejects(writeTextAtomic(target, "{}"));
      assert.deepEqual(await names(dir), ["state.json"]);
    });
  },
});

Deno.test("readJsonFile() returns null for a missing file and throws on invalid JSON", async () => {
  await withDir(async (dir) => {
    assert.equal(await readJsonFile(join(dir, "none.json")), null);
    await Deno.writeTextFile(join(dir, "bad.json"), "{oops");
    await assert.rejects(readJsonFile(join(dir, "bad.json")), SyntaxError);
  });
});

Deno.test("readJsonLines() returns every line and skips a torn last line", async () => {
  await withDir(async (dir) => {
    const path = join(dir, "events.jsonl");
    await Deno.writeTextFile(path, '{"n":1}\n{"n":2}\n{"n":3,"text":"cut in the mid');
    assert.deepEqual(await readJsonLines(path), [{ n: 1 }, { n: 2 }]);
  });
});

Deno.test("readJsonLines() keeps a complete last line that has no trailing newline", async () => {
  await withDir(async (dir) => {
    const path = join(dir, "events.jsonl");
    await Deno.writeTextFile(path, '{"n":1}\n\n{"n":2}');
    assert.deepEqual(await readJsonLines(path), [{ n: 1 }, { n: 2 }]);
  });
});

Deno.test("readJsonLines() returns [] for a missing file", async () => {
  await withDir(async (dir) => {
    assert.deepEqual(await readJsonLines(join(dir, "none.jsonl")), []);
  });
});

Deno.test("appendJsonLine() creates the file with mode 0600 and appends one line per call", async () => {
  await withDir(async (dir) => {
    const path = join(dir, "audit.jsonl");
    await appendJsonLine(path, { n: 1 });
    await appendJsonLine(path, { n: 2, s: "line\nbreak" });
    assert.equal(await Deno.readTextFile(path), '{"n":1}\n{"n":2,"s":"line\\nbreak"}\n');
    assert.equal((await Deno.stat(path)).mode! & 0o777, 0o600);
  });
});

Deno.test("appendJsonLine() from 20 concurrent promises yields 20 parseable lines", async () => {
  await withDir(async (dir) => {
    const path = join(dir, "events.jsonl");
    const payload = "p".repeat(2_000);
    await Promise.all(Array.from({ length: 20 }, (_, i) => appendJsonLine(path, { i, payload })));
    const text = await Deno.readTextFile(path);
    const lines = text.split("\n").filter((l) => l.length > 0);
    assert.equal(lines.length, 20);
    const seen = lines.map((l) => (JSON.parse(l) as { i: number }).i).sort((a, b) => a - b);
    assert.deepEqual(seen, Array.from({ length: 20 }, (_, i) => i));
    assert.equal((await readJsonLines(path)).length, 20);
  });
});

// Regression (fixed): store/files.ts appendJsonLine() does not start a new line when the file ends in a torn
// line (the very case readJsonLines() is built to survive), so the next appended record is glued
// onto the torn fragment and readJsonLines() silently drops it as well.
Deno.test({
  name: "appendJsonLine() after a torn last line keeps the new record readable",
  fn: async () => {
    await withDir(async (dir) => {
      const path = join(dir, "events.jsonl");
      await Deno.writeTextFile(path, '{"n":1}\n{"n":2,"te');
      await appendJsonLine(path, { n: 3 });
      assert.deepEqual(await readJsonLines(path), [{ n: 1 }, { n: 3 }]);
    });
  },
});

Deno.test("writeJsonAtomic() fsyncs a record, and skips it only when told the file is not durable", async () => {
  const dir = await Deno.makeTempDir();
  enableTimings();
  const fsyncs = () => Number(/(\d+)x\s+fsync/.exec(timingsTable(0))?.[1] ?? 0);
  try {
    const before = fsyncs();
    await writeJsonAtomic(join(dir, "record.json"), { a: 1 });
    assert.equal(fsyncs(), before + 1);
    await writeJsonAtomic(join(dir, "live.json"), { pid: 1 }, { durable: false });
    assert.equal(fsyncs(), before + 1, "a non-durable write made an fsync");
    assert.deepEqual(JSON.parse(await Deno.readTextFile(join(dir, "live.json"))), { pid: 1 });
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
