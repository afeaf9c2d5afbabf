import assert from "node:assert/strict";
import type { ChangedFile } from "./parse_diff.ts";
import { scanDelta, type ScanPolicy } from "./scope_scan.ts";

const POLICY: ScanPolicy = {
  allowedPaths: ["src/**", "docs/*.md", "README.md"],
  forbiddenPaths: ["src/generated/**"],
  alwaysForbiddenPaths: [".env", ".github/workflows/**", "*.pem"],
  maxChangedFiles: 5,
  maxDeletedLineRatio: 0.5,
  maxDiffBytes: 10_000,
  maxFileBytes: 1_000,
};

const edit = (path: string, changes: Partial<ChangedFile> = {}): ChangedFile => ({
  path,
  status: "modified",
  oldMode: "100644",
  newMode: "100644",
  binary: false,
  addedLines: [{ line: 1, text: "export const ok = true;" }],
  deletedCount: 0,
  addedCount: 1,
  ...changes,
});

const scan = (files: ChangedFile[], policy: Partial<ScanPolicy> = {}, sizes?: Map<string, number>) =>
  scanDelta(files, 500, { ...POLICY, ...policy }, sizes);
const codes = (files: ChangedFile[], policy: Partial<ScanPolicy> = {}, sizes?: Map<string, number>) =>
  scan(files, policy, sizes).issues.map((issue) => issue.code);

Deno.test("scanDelta() passes an ordinary in-scope edit and reports its numbers", () => {
  const result = scan([edit("src/a.ts", { deletedCount: 1 }), edit("docs/guide.md")]);
  assert.deepEqual(result, {
    passed: true,
    issues: [],
    changedFiles: ["src/a.ts", "docs/guide.md"],
    addedLines: 2,
    deletedLines: 1,
    deletionRatio: 0,
    diffBytes: 500,
  });
});

Deno.test("scanDelta() blocks an empty delta", () => {
  assert.deepEqual(scan([]).issues, [{
    code: "NO_CHANGES",
    message: "The worker changed nothing: the diff is empty",
  }]);
  assert.equal(scan([edit("src/a.ts")]).passed, true);
});

Deno.test("scanDelta() blocks too many files, one past the limit", () => {
  const files = (n: number) => Array.from({ length: n }, (_, i) => edit(`src/f${i}.ts`));
  assert.deepEqual(scan(files(6)).issues, [
    { code: "TOO_MANY_FILES", message: "Too many files changed: 6 files, the limit is 5" },
  ]);
  assert.equal(scan(files(5)).passed, true);
});

Deno.test("scanDelta() blocks a diff or a file over its byte limit", () => {
  assert.deepEqual(scanDelta([edit("src/a.ts")], 10_001, POLICY).issues.map((i) => i.message), [
    "The diff is too large: 10001 bytes, the limit is 10000",
  ]);
  assert.equal(scanDelta([edit("src/a.ts")], 10_000, POLICY).passed, true);
  assert.deepEqual(codes([edit("src/a.ts")], {}, new Map([["src/a.ts", 1_001]])), ["FILE_TOO_LARGE"]);
  assert.deepEqual(codes([edit("src/a.ts")], {}, new Map([["src/a.ts", 1_000]])), []);
});

Deno.test("scanDelta() blocks an invalid path once per problem", () => {
  const issues = scan([edit("src/../-x")]).issues;
  assert.deepEqual(issues.map((issue) => issue.message), [
    'Path "src/../-x" is not allowed: it contains a ".." segment',
    'Path "src/../-x" is not allowed: segment "-x" starts with "-"',
  ]);
  assert.deepEqual(issues.map((issue) => issue.file), ["src/../-x", "src/../-x"]);
  assert.equal(scan([edit("src/x-")]).passed, true);
});

Deno.test("scanDelta() blocks paths that differ only in case", () => {
  const issues = scan([edit("src/Util.ts"), edit("src/util.ts")]).issues;
  assert.deepEqual(issues.map((issue) => issue.code), ["PATH_CASE_COLLISION"]);
  assert.match(issues[0].message, /^Paths "src\/Util.ts" and "src\/util.ts" collide: /);
  assert.equal(scan([edit("src/Util.ts"), edit("src/util2.ts")]).passed, true);
});

Deno.test("scanDelta() blocks a path outside the allowed globs, deletions included", () => {
  assert.deepEqual(scan([edit("lib/a.ts", { status: "deleted", newMode: null })]).issues, [{
    code: "PATH_OUT_OF_SCOPE",
    file: "lib/a.ts",
    message: 'Path "lib/a.ts" is out of scope: it matches none of the allowed paths',
  }]);
  assert.deepEqual(codes([edit("docs/a/b.md")]), ["PATH_OUT_OF_SCOPE"]);
  assert.deepEqual(codes([edit("README.md"), edit("docs/b.md")]), []);
  assert.deepEqual(codes([edit("src/a.ts")], { allowedPaths: [] }), ["PATH_OUT_OF_SCOPE"]);
});

Deno.test("scanDelta() blocks forbidden paths even inside the allowed scope", () => {
  const forbidden = (path: string) => scan([edit(path)], { allowedPaths: ["**"] }).issues;
  assert.deepEqual(forbidden("src/generated/api.ts").map((i) => i.message), [
    'Path "src/generated/api.ts" is forbidden: it matches "src/generated/**"',
  ]);
  assert.deepEqual(forbidden(".github/workflows/ci.yml").map((i) => i.code), ["PATH_FORBIDDEN"]);
  assert.deepEqual(forbidden("src/tls/server.PEM").map((i) => i.code), ["PATH_FORBIDDEN", "SECRET_FILE"]);
  assert.deepEqual(forbidden("src/generator/api.ts"), []);
  assert.deepEqual(forbidden(".github/CODEOWNERS"), []);
});

Deno.test("scanDelta() blocks a symlink that points outside, and any other symlink change", () => {
  const link = { status: "added" as const, oldMode: null, newMode: "120000" };
  const added = [{ line: 1, text: "../../../etc/passwd" }];
  assert.deepEqual(codes([edit("src/link", { ...link, addedLines: added })]), ["SYMLINK_CHANGE"]);
  assert.deepEqual(codes([edit("src/link", { status: "deleted", oldMode: "120000", newMode: null })]), [
    "SYMLINK_CHANGE",
  ]);
  assert.deepEqual(codes([edit("src/link", { status: "added", oldMode: null, addedLines: added })]), []);
});

Deno.test("scanDelta() blocks a submodule pointer change", () => {
  const pointer = [{ line: 1, text: `Subproject commit ${"c".repeat(40)}` }];
  const gitlink = { oldMode: "160000", newMode: "160000", addedLines: pointer };
  assert.deepEqual(codes([edit("src/vendor", gitlink)]), ["SUBMODULE_CHANGE"]);
  assert.deepEqual(codes([edit("src/vendor", { addedLines: pointer })]), []);
});

Deno.test("scanDelta() blocks a nested .git as both invalid and nested", () => {
  const issues = scan([edit("src/pkg/.Git", { status: "added", oldMode: null })]).issues;
  assert.deepEqual(issues.map((issue) => issue.code), ["PATH_INVALID", "NESTED_GIT"]);
  assert.deepEqual(codes([edit("src/.git/hooks/post-checkout")]), ["PATH_INVALID"]);
  assert.deepEqual(codes([edit("src/pkg/.gitkeep")]), []);
});

Deno.test("scanDelta() blocks binary changes", () => {
  const image = { binary: true, addedLines: [], addedCount: 0 };
  assert.deepEqual(scan([edit("src/logo.png", image)]).issues.map((i) => i.message), [
    'File "src/logo.png" is binary: a binary change cannot be reviewed',
  ]);
  assert.equal(scan([edit("src/logo.svg")]).passed, true);
});

Deno.test("scanDelta() blocks the executable bit changing and type changes", () => {
  const message = (file: ChangedFile) => scan([file]).issues.map((issue) => issue.message);
  assert.deepEqual(message(edit("src/run.sh", { newMode: "100755" })), [
    'File "src/run.sh" changes mode: the executable bit is added',
  ]);
  assert.deepEqual(message(edit("src/run.sh", { oldMode: "100755" })), [
    'File "src/run.sh" changes mode: the executable bit is removed',
  ]);
  assert.deepEqual(message(edit("src/run.sh", { status: "added", oldMode: null, newMode: "100755" })), [
    'File "src/run.sh" changes mode: it is added as an executable',
  ]);
  assert.deepEqual(codes([edit("src/x", { status: "typechange", newMode: "120000" })]), [
    "SYMLINK_CHANGE",
    "MODE_CHANGE",
  ]);
  assert.deepEqual(codes([edit("src/run.sh", { oldMode: "100755", newMode: "100755" })]), []);
  assert.deepEqual(codes([edit("src/run.sh", { status: "deleted", oldMode: "100755", newMode: null })]), []);
});

Deno.test("scanDelta() blocks a delta that mostly deletes", () => {
  const heavy = scan([edit("src/a.ts", { addedCount: 5, deletedCount: 35 })]);
  assert.deepEqual(heavy.issues.map((issue) => issue.message), [
    "Too many lines deleted: 30 net of 40 changed lines (75%), the limit is 50%",
  ]);
  assert.equal(heavy.deletionRatio, 0.75);
  // Lines rewritten in place are not deletions, and a few removed lines are ordinary cleanup.
  assert.equal(scan([edit("src/a.ts", { addedCount: 30, deletedCount: 30 })]).passed, true);
  assert.equal(scan([edit("src/a.ts", { addedCount: 1, deletedCount: 9 })]).passed, true);
});

Deno.test("scanDelta() blocks an added secret with its line, and never echoes it", () => {
  const key = "AKIA" + "Q7ZL3MPX2RVN5TBE";
  const added = [{ line: 1, text: "// config" }, { line: 7, text: `const id = "${key}";` }];
  const result = scan([edit("src/aws.ts", { addedLines: added })]);
  assert.deepEqual(result.issues, [{
    code: "SECRET_DETECTED",
    file: "src/aws.ts",
    line: 7,
    message: 'Line 7 of "src/aws.ts" looks like a secret: aws-access-key-id "AKIA…"',
  }]);
  assert.ok(!JSON.stringify(result).includes(key));
  const placeholder = [{ line: 7, text: 'const id = "YOUR_ACCESS_KEY_HERE";' }];
  assert.equal(scan([edit("src/aws.ts", { addedLines: placeholder })]).passed, true);
});

Deno.test("scanDelta() blocks adding a credentials file but not deleting one", () => {
  const policy = { allowedPaths: ["**"], alwaysForbiddenPaths: [] };
  assert.deepEqual(scan([edit("src/.env.local")], policy).issues.map((issue) => issue.message), [
    'File "src/.env.local" may hold credentials: it is an environment file, which usually holds secrets',
  ]);
  assert.deepEqual(codes([edit("src/.env.example")], policy), []);
  assert.deepEqual(codes([edit("src/.env.local", { status: "deleted", newMode: null })], policy), []);
});
