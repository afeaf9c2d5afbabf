import assert from "node:assert/strict";
import { hunksAt, hunksCited, splitHunks } from "./hunks.ts";

const DIFF = [
  "diff --git a/a.ts b/a.ts",
  "index 1111111111111111111111111111111111111111..2222222222222222222222222222222222222222 100644",
  "--- a/a.ts",
  "+++ b/a.ts",
  "@@ -1,3 +1,3 @@",
  " one",
  "-two",
  "+TWO",
  " three",
  "@@ -40,2 +40,3 @@ function f() {",
  " forty",
  "+forty-one",
  " forty-two",
  "diff --git a/gone.ts b/gone.ts",
  "deleted file mode 100644",
  "index 4444444444444444444444444444444444444444..0000000000000000000000000000000000000000",
  "--- a/gone.ts",
  "+++ /dev/null",
  "@@ -1 +0,0 @@",
  "-export {};",
  "diff --git a/b.ts b/b.ts",
  "new file mode 100644",
  "index 0000000000000000000000000000000000000000..3333333333333333333333333333333333333333",
  "--- /dev/null",
  "+++ b/b.ts",
  "@@ -0,0 +1 @@",
  "+export {};",
  "",
].join("\n");

Deno.test("splitHunks() finds every hunk with its file and new-side range", () => {
  const hunks = splitHunks(DIFF);
  assert.deepEqual(hunks.map((h) => [h.file, h.newStart, h.newCount]), [
    ["a.ts", 1, 3],
    ["a.ts", 40, 3],
    ["gone.ts", 0, 0],
    ["b.ts", 1, 1],
  ]);
  assert.match(hunks[1].text, /^@@ -40,2 \+40,3 @@ function f\(\) \{\n forty\n\+forty-one\n forty-two$/);
  assert.match(hunks[3].fileHeader, /new file mode/);
});

Deno.test("hunksAt() picks the hunk that covers a line, and the whole file without one", () => {
  const hunks = splitHunks(DIFF);
  assert.deepEqual(hunksAt(hunks, "a.ts", 41).map((h) => h.newStart), [40]);
  assert.deepEqual(hunksAt(hunks, "a.ts", 2).map((h) => h.newStart), [1]);
  assert.deepEqual(hunksAt(hunks, "a.ts", null).map((h) => h.newStart), [1, 40]);
  assert.deepEqual(hunksAt(hunks, "missing.ts", 3), []);
});

Deno.test("hunksCited() vouches only for the hunk that holds the cited line", () => {
  const hunks = splitHunks(DIFF);
  const cited = (file: string, line: number | null) => hunksCited(hunks, file, line).map((h) => h.newStart);
  assert.deepEqual(cited("a.ts", 3), [1], "the last context line of the first hunk");
  assert.deepEqual(cited("a.ts", 4), [], "one line past a hunk is not a citation of it");
  assert.deepEqual(cited("a.ts", 39), []);
  assert.deepEqual(cited("a.ts", 42), [40]);
  assert.deepEqual(
    cited("a.ts", 200),
    [],
    "a far line cites nothing, where hunksAt() would read the whole file",
  );
  assert.deepEqual(hunksAt(hunks, "a.ts", 200).map((h) => h.newStart), [1, 40]);
});

Deno.test("hunksCited() lets a line-less citation vouch only for a hunk with no line to point at", () => {
  const hunks = splitHunks(DIFF);
  assert.deepEqual(hunksCited(hunks, "a.ts", null), [], "a whole file cannot be covered in one entry");
  assert.deepEqual(hunksCited(hunks, "gone.ts", null).map((h) => h.file), ["gone.ts"]);
  assert.deepEqual(hunksCited(hunks, "b.ts", 1).map((h) => h.file), ["b.ts"]);
});
