import assert from "node:assert/strict";
import { caseFoldCollisions, foldPath, isDotGit, pathProblems, quote } from "./path_rules.ts";

Deno.test("pathProblems() accepts ordinary repo-relative paths", () => {
  for (
    const path of ["src/main.ts", ".github/workflows/ci.yml", "docs/café.md", "a-b/c_d.e", "x/.gitignore"]
  ) {
    assert.deepEqual(pathProblems(path), [], path);
  }
});

Deno.test("pathProblems() refuses absolute paths and climbing out of the tree", () => {
  assert.deepEqual(pathProblems("/etc/passwd"), ["it is absolute"]);
  assert.deepEqual(pathProblems("C:/Windows/x"), ["it is absolute"]);
  assert.deepEqual(pathProblems("src/../x"), ['it contains a ".." segment']);
  assert.deepEqual(pathProblems("src/./x"), ['it contains a "." segment']);
  assert.deepEqual(pathProblems("..\\x"), ["it contains a backslash"]);
  assert.deepEqual(pathProblems("src/..x/y"), []);
});

Deno.test("pathProblems() refuses empty paths and empty segments", () => {
  assert.deepEqual(pathProblems(""), ["it is empty"]);
  assert.deepEqual(pathProblems("a//b"), ["it contains an empty segment"]);
  assert.deepEqual(pathProblems("a/"), ["it contains an empty segment"]);
});

Deno.test("pathProblems() refuses a segment that a command would read as an option", () => {
  assert.deepEqual(pathProblems("scripts/-rf"), ['segment "-rf" starts with "-"']);
  assert.deepEqual(pathProblems("scripts/a-rf"), []);
});

Deno.test("pathProblems() refuses control, bidi and zero-width characters", () => {
  assert.deepEqual(pathProblems("a\nb"), ["it contains a control character (U+000A)"]);
  assert.deepEqual(pathProblems("a\rb\u007f"), [
    "it contains a control character (U+000D)",
    "it contains a control character (U+007F)",
  ]);
  assert.deepEqual(pathProblems("src/\u202egnp.ts"), ["it contains a bidi control character (U+202E)"]);
  assert.deepEqual(pathProblems("a\u2066b\u200fc"), [
    "it contains a bidi control character (U+2066)",
    "it contains a bidi control character (U+200F)",
  ]);
  assert.deepEqual(pathProblems("ma\u200bin.ts"), ["it contains a zero-width character (U+200B)"]);
  assert.deepEqual(pathProblems("\ufeffmain.ts"), ["it contains a zero-width character (U+FEFF)"]);
  assert.deepEqual(pathProblems("bad\ufffd.txt"), ["it is not valid UTF-8"]);
});

Deno.test("pathProblems() refuses a .git segment in every spelling", () => {
  assert.deepEqual(pathProblems("sub/.git/config"), ['it contains a ".git" segment']);
  assert.deepEqual(pathProblems(".GIT/hooks/x"), ['segment ".GIT" is another spelling of ".git"']);
  assert.deepEqual(pathProblems(".git./config"), ['segment ".git." is another spelling of ".git"']);
  assert.deepEqual(pathProblems(".git /config"), ['segment ".git " is another spelling of ".git"']);
  assert.deepEqual(pathProblems("GIT~1/config"), ['segment "GIT~1" is another spelling of ".git"']);
  assert.deepEqual(pathProblems(".g\u200bit/config"), [
    'segment ".g\\u200bit" is another spelling of ".git"',
    "it contains a zero-width character (U+200B)",
  ]);
  assert.deepEqual(pathProblems(".gitignore"), []);
  assert.deepEqual(pathProblems("a/.github/x"), []);
});

Deno.test("isDotGit() sees through NTFS stream suffixes", () => {
  assert.ok(isDotGit(".git::$INDEX_ALLOCATION"));
  assert.ok(!isDotGit(".gitattributes"));
});

Deno.test("foldPath() keeps . and .. segments intact", () => {
  assert.equal(foldPath("A/../B./."), "a/../b/.");
});

Deno.test("quote() shows invisible and control characters as escapes", () => {
  assert.equal(quote("a\u202eb\nc\u0085"), '"a\\u202eb\\nc\\u0085"');
  assert.equal(quote("plain"), '"plain"');
});

Deno.test("caseFoldCollisions() pairs names that differ only in case or invisible marks", () => {
  assert.deepEqual(caseFoldCollisions(["README.md", "readme.md", "src/a.ts"]), [["README.md", "readme.md"]]);
  assert.deepEqual(caseFoldCollisions(["Src/a.ts", "src/b.ts", "src/c.ts"]), [["Src", "src"]]);
  assert.deepEqual(caseFoldCollisions(["a.txt", "a.txt.", "b\u200c.txt", "b.txt"]), [
    ["a.txt", "a.txt."],
    ["b\u200c.txt", "b.txt"],
  ]);
  assert.deepEqual(caseFoldCollisions(["caf\u00e9.md", "cafe\u0301.md"]), [[
    "caf\u00e9.md",
    "cafe\u0301.md",
  ]]);
  assert.deepEqual(caseFoldCollisions(["src/a.ts", "src/b.ts", "lib/a.ts"]), []);
});
