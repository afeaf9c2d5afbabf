import assert from "node:assert/strict";
import { isSpotError } from "../errors.ts";
import { type ChangedFile, parseDiff } from "./parse_diff.ts";

const ZERO = "0".repeat(40);
const SHA_A = "a".repeat(40);
const SHA_B = "b".repeat(40);
const diff = (...lines: string[]) => lines.join("\n") + "\n";
const only = (text: string): ChangedFile => {
  const files = parseDiff(text);
  assert.equal(files.length, 1);
  return files[0];
};

Deno.test("parseDiff() numbers added lines as in the new file, across hunks", () => {
  const file = only(diff(
    "diff --git a/src/mod.ts b/src/mod.ts",
    `index ${SHA_A}..${SHA_B} 100644`,
    "--- a/src/mod.ts",
    "+++ b/src/mod.ts",
    "@@ -1,3 +1,4 @@",
    " one",
    "-two",
    "+TWO",
    " three",
    "+four",
    "@@ -20,2 +21 @@ function tail() {",
    "-gone",
    " kept",
  ));
  assert.deepEqual(file, {
    path: "src/mod.ts",
    status: "modified",
    oldMode: "100644",
    newMode: "100644",
    binary: false,
    addedLines: [{ line: 2, text: "TWO" }, { line: 4, text: "four" }],
    deletedCount: 2,
    addedCount: 2,
  });
});

Deno.test("parseDiff() reads added and deleted files with their modes", () => {
  const [added, deleted] = parseDiff(diff(
    "diff --git a/new.txt b/new.txt",
    "new file mode 100755",
    `index ${ZERO}..${SHA_B}`,
    "--- /dev/null",
    "+++ b/new.txt",
    "@@ -0,0 +1,2 @@",
    "+first",
    "+second",
    "diff --git a/old.txt b/old.txt",
    "deleted file mode 100644",
    `index ${SHA_A}..${ZERO}`,
    "--- a/old.txt",
    "+++ /dev/null",
    "@@ -1 +0,0 @@",
    "-bye",
  ));
  assert.deepEqual([added.path, added.status, added.oldMode, added.newMode], [
    "new.txt",
    "added",
    null,
    "100755",
  ]);
  assert.deepEqual(added.addedLines.map((a) => a.line), [1, 2]);
  assert.deepEqual([deleted.path, deleted.status, deleted.oldMode, deleted.newMode], [
    "old.txt",
    "deleted",
    "100644",
    null,
  ]);
  assert.equal(deleted.deletedCount, 1);
});

Deno.test("parseDiff() decodes C-quoted paths with escapes and octal UTF-8 bytes", () => {
  const quoted = '"b/tab\\there\\"q\\\\caf\\303\\251.txt"';
  const file = only(diff(
    `diff --git ${quoted.replace("b/", "a/")} ${quoted}`,
    "new file mode 100644",
    `index ${ZERO}..${SHA_B}`,
    "--- /dev/null",
    `+++ ${quoted}`,
    "@@ -0,0 +1 @@",
    "+x",
  ));
  assert.equal(file.path, 'tab\there"q\\café.txt');
});

Deno.test("parseDiff() drops the tab git adds after a name with spaces and splits such headers", () => {
  const file = only(diff(
    "diff --git a/a b/c.txt b/a b/c.txt",
    `index ${SHA_A}..${SHA_B} 100644`,
    "--- a/a b/c.txt\t",
    "+++ b/a b/c.txt\t",
    "@@ -1 +1 @@",
    "-a",
    "+b",
  ));
  assert.equal(file.path, "a b/c.txt");
});

Deno.test("parseDiff() takes the path from the header when there are no ---/+++ lines", () => {
  const [empty, modeOnly] = parseDiff(diff(
    "diff --git a/empty.txt b/empty.txt",
    "new file mode 100644",
    `index ${ZERO}..e69de29bb2d1d6434b8b29ae775ad8c2e48c5391`,
    "diff --git a/run.sh b/run.sh",
    "old mode 100644",
    "new mode 100755",
  ));
  assert.deepEqual([empty.path, empty.status, empty.addedCount], ["empty.txt", "added", 0]);
  assert.deepEqual([modeOnly.path, modeOnly.status, modeOnly.oldMode, modeOnly.newMode], [
    "run.sh",
    "modified",
    "100644",
    "100755",
  ]);
});

Deno.test("parseDiff() marks binary patches as binary and resumes at the next header", () => {
  const [patched, summarized, text] = parseDiff(diff(
    "diff --git a/logo.png b/logo.png",
    `index ${SHA_A}..${SHA_B} 100644`,
    "GIT binary patch",
    "literal 11",
    "ScmYew%wtF_sx)F`Vg>*dy8^xd",
    "",
    "literal 7",
    "OcmYew%wtF_sssQD(E^45",
    "",
    "diff --git a/font.woff b/font.woff",
    `index ${SHA_A}..${SHA_B} 100644`,
    "Binary files a/font.woff and b/font.woff differ",
    "diff --git a/a.txt b/a.txt",
    `index ${SHA_A}..${SHA_B} 100644`,
    "--- a/a.txt",
    "+++ b/a.txt",
    "@@ -1 +1 @@",
    "-a",
    "+b",
  ));
  assert.deepEqual([patched.binary, patched.addedCount, summarized.binary], [true, 0, true]);
  assert.deepEqual([text.path, text.binary, text.addedCount], ["a.txt", false, 1]);
});

Deno.test("parseDiff() merges a file replaced by a symlink into one typechange", () => {
  const file = only(diff(
    "diff --git a/tc b/tc",
    "deleted file mode 100644",
    `index ${SHA_A}..${ZERO}`,
    "--- a/tc",
    "+++ /dev/null",
    "@@ -1 +0,0 @@",
    "-target",
    "diff --git a/tc b/tc",
    "new file mode 120000",
    `index ${ZERO}..${SHA_B}`,
    "--- /dev/null",
    "+++ b/tc",
    "@@ -0,0 +1 @@",
    "+/etc/passwd",
    "\\ No newline at end of file",
  ));
  assert.deepEqual([file.status, file.oldMode, file.newMode], ["typechange", "100644", "120000"]);
  assert.deepEqual([file.addedLines, file.deletedCount], [[{ line: 1, text: "/etc/passwd" }], 1]);
});

Deno.test("parseDiff() reads a submodule pointer as mode 160000", () => {
  const file = only(diff(
    "diff --git a/vendor/lib b/vendor/lib",
    "new file mode 160000",
    `index ${ZERO}..${SHA_B}`,
    "--- /dev/null",
    "+++ b/vendor/lib",
    "@@ -0,0 +1 @@",
    `+Subproject commit ${SHA_B}`,
  ));
  assert.deepEqual([file.status, file.newMode], ["added", "160000"]);
});

Deno.test("parseDiff() treats content that looks like diff headers as content", () => {
  const file = only(diff(
    "diff --git a/notes.md b/notes.md",
    "new file mode 100644",
    `index ${ZERO}..${SHA_B}`,
    "--- /dev/null",
    "+++ b/notes.md",
    "@@ -0,0 +1,3 @@",
    "++++ b/fake",
    "+--- a/fake",
    "+diff --git a/x b/x",
  ));
  assert.deepEqual(file.addedLines.map((a) => a.text), ["+++ b/fake", "--- a/fake", "diff --git a/x b/x"]);
});

Deno.test("parseDiff() refuses renames, truncated hunks and unknown lines rather than guess", () => {
  const head = ["diff --git a/a.txt b/a.txt", `index ${SHA_A}..${SHA_B} 100644`];
  const cases = [
    diff(...head, "--- a/a.txt", "+++ b/other.txt", "@@ -1 +1 @@", "-a", "+b"),
    diff(...head, "--- a/a.txt", "+++ b/a.txt", "@@ -1,2 +1,2 @@", "-a", "+b"),
    diff(...head, "rename from a.txt"),
    diff("warning: something", ...head),
  ];
  for (const text of cases) assert.throws(() => parseDiff(text), (e) => isSpotError(e, "GIT_FAILED"));
  assert.deepEqual(parseDiff(""), []);
});

Deno.test("parseDiff() reads what real git prints for a mixed change", async () => {
  const dir = await Deno.makeTempDir({ prefix: "spot-parse-diff-" });
  const git = async (...args: string[]) => {
    const env = {
      GIT_CONFIG_NOSYSTEM: "1",
      GIT_CONFIG_GLOBAL: "/dev/null",
      GIT_AUTHOR_NAME: "t",
      GIT_COMMITTER_NAME: "t",
    };
    const out = await new Deno.Command("git", { args, cwd: dir, env: { ...env, EMAIL: "t@example.com" } })
      .output();
    assert.ok(out.success, new TextDecoder().decode(out.stderr));
    return new TextDecoder().decode(out.stdout);
  };
  try {
    await git("init", "-q");
    await Deno.writeTextFile(`${dir}/keep.txt`, "one\ntwo\n");
    await Deno.writeTextFile(`${dir}/gone.txt`, "bye\n");
    await git("add", "-A");
    await git("commit", "-qm", "base");
    await Deno.writeTextFile(`${dir}/keep.txt`, "one\n2\nthree");
    await Deno.remove(`${dir}/gone.txt`);
    await Deno.writeTextFile(`${dir}/é \t"x".txt`, "new\n");
    await Deno.symlink("../outside", `${dir}/link`);
    await git("add", "-A");
    const tree = (await git("write-tree")).trim();
    const flags = ["--no-renames", "--full-index", "--binary", "--no-ext-diff", "--no-textconv"];
    const files = parseDiff(await git("-c", "core.quotePath=false", "diff", ...flags, "HEAD", tree));
    const summary = files.map((f) => [f.path, f.status, f.newMode, f.addedLines.map((a) => a.line)]);
    assert.deepEqual(summary, [
      ["gone.txt", "deleted", null, []],
      ["keep.txt", "modified", "100644", [2, 3]],
      ["link", "added", "120000", [1]],
      ['é \t"x".txt', "added", "100644", [1]],
    ]);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
