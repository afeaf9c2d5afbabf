import assert from "node:assert/strict";
import {
  argvFiles,
  canonical,
  compareLocks,
  frozenKeys,
  kindOf,
  lockPatterns,
  type LockSnapshot,
  runsPackageScripts,
} from "./locked.ts";

const snapshot: LockSnapshot = {
  patterns: [
    { pattern: "tests/**", kind: "locked" },
    { pattern: "**/jest.config.*", kind: "verification" },
    { pattern: "scripts/test.sh", kind: "verification" },
  ],
  files: [
    { path: "tests/a_test.ts", mode: "100644", oid: "a1", kind: "locked" },
    { path: "scripts/test.sh", mode: "100755", oid: "s1", kind: "verification" },
  ],
  json: [{
    path: "package.json",
    keys: { scripts: canonical({ test: "jest" }), jest: "null" },
    verificationKeys: ["scripts"],
  }],
};
const same = new Map([["tests/a_test.ts", { mode: "100644", oid: "a1" }], ["scripts/test.sh", {
  mode: "100755",
  oid: "s1",
}], ["src/x.ts", { mode: "100644", oid: "x" }]]);
const json = (scripts: unknown, jest: unknown = null) =>
  new Map([["package.json", { scripts: canonical(scripts), jest: canonical(jest) }]]);

Deno.test("compareLocks() passes an unchanged tree with edits elsewhere", () => {
  assert.deepEqual(compareLocks(snapshot, same, json({ test: "jest" })), []);
});

Deno.test("compareLocks() catches a changed, deleted, re-moded or newly added locked file", () => {
  const changed = new Map(same).set("tests/a_test.ts", { mode: "100644", oid: "a2" });
  assert.deepEqual(compareLocks(snapshot, changed, json({ test: "jest" })).map((i) => [i.code, i.file]), [[
    "LOCKED_PATH_CHANGED",
    "tests/a_test.ts",
  ]]);
  const deleted = new Map(same);
  deleted.delete("scripts/test.sh");
  assert.deepEqual(compareLocks(snapshot, deleted, json({ test: "jest" })).map((i) => i.code), [
    "VERIFICATION_SCRIPT_CHANGED",
  ]);
  const moded = new Map(same).set("scripts/test.sh", { mode: "100644", oid: "s1" });
  assert.match(
    compareLocks(snapshot, moded, json({ test: "jest" }))[0].message,
    /changed mode 100755 -> 100644/,
  );
  const added = new Map(same).set("tests/new_test.ts", { mode: "100644", oid: "n" }).set(
    "web/jest.config.js",
    { mode: "100644", oid: "j" },
  );
  assert.deepEqual(compareLocks(snapshot, added, json({ test: "jest" })).map((i) => [i.code, i.file]), [
    ["LOCKED_PATH_CHANGED", "tests/new_test.ts"],
    ["VERIFICATION_SCRIPT_CHANGED", "web/jest.config.js"],
  ]);
});

Deno.test("compareLocks() treats a scripts change as the harness and other frozen keys as locks", () => {
  assert.deepEqual(compareLocks(snapshot, same, json({ test: "exit 0" })).map((i) => i.code), [
    "VERIFICATION_SCRIPT_CHANGED",
  ]);
  assert.deepEqual(compareLocks(snapshot, same, json({ test: "jest" }, { bail: true })).map((i) => i.code), [
    "LOCKED_PATH_CHANGED",
  ]);
});

Deno.test("canonical() and frozenKeys() ignore formatting and key order, not content", () => {
  assert.equal(
    canonical({ b: 1, a: [1, { d: 2, c: 3 }] }),
    canonical(JSON.parse('{ "a": [1, {"c":3,"d":2}], "b": 1 }')),
  );
  assert.notEqual(canonical({ a: 1 }), canonical({ a: 2 }));
  assert.deepEqual(frozenKeys('{"scripts":{"t":"x"},"dependencies":{}}', ["scripts", "jest"]), {
    scripts: '{"t":"x"}',
    jest: "null",
  });
});

Deno.test("argvFiles(), runsPackageScripts() and kindOf() find what the checks execute", () => {
  const tree = new Set(["scripts/test.sh", "tests/a_test.ts"]);
  assert.deepEqual(
    argvFiles([["sh", "./scripts/test.sh"], ["deno", "test", "tests/a_test.ts", "--quiet"]], tree),
    ["scripts/test.sh", "tests/a_test.ts"],
  );
  assert.equal(runsPackageScripts([["npm", "test"]]), true);
  assert.equal(runsPackageScripts([["/usr/bin/deno", "task", "test"]]), true);
  assert.equal(runsPackageScripts([["deno", "test"]]), false);
  const patterns = lockPatterns({
    lockedPaths: ["tests/a_test.ts"],
    alwaysLockedPaths: [],
    frozenPackageJsonKeys: [],
    verificationArgv: [["deno", "test", "tests/a_test.ts"]],
  }, tree);
  assert.equal(kindOf("tests/a_test.ts", patterns), "locked", "the parent's explicit lock wins");
  assert.equal(kindOf("src/x.ts", patterns), null);
});

Deno.test("kindOf() covers a locked path in any case and any spelling a lenient filesystem folds to it", () => {
  const patterns: LockSnapshot["patterns"] = [{ pattern: "tests/add_test.ts", kind: "locked" }];
  for (const path of ["tests/add_test.ts", "tests/ADD_test.ts", "TESTS/Add_Test.TS", "tests/add_test.ts."]) {
    assert.equal(kindOf(path, patterns), "locked", path);
  }
  assert.equal(kindOf("tests/add_test2.ts", patterns), null);
});

Deno.test("compareLocks() refuses a new file that differs from a locked one only in case", () => {
  const issues = compareLocks(
    snapshot,
    new Map([...same, ["tests/A_TEST.ts", { mode: "100644", oid: "z" }]]),
    json({ test: "jest" }),
  );
  assert.deepEqual(issues.map((i) => [i.code, i.file]), [["LOCKED_PATH_CHANGED", "tests/A_TEST.ts"]]);
});

Deno.test("lockPatterns() adds the files the checks' runners read", () => {
  const tree = new Set<string>();
  const policy = {
    lockedPaths: [],
    alwaysLockedPaths: [],
    frozenPackageJsonKeys: [],
    verificationArgv: [["make", "test"]],
  };
  const patterns = lockPatterns(policy, tree);
  assert.equal(kindOf("Makefile", patterns), "verification");
  assert.equal(kindOf("src/Makefile", patterns), "verification");
  assert.equal(kindOf("pyproject.toml", patterns), null, "make does not read pyproject.toml");
});
