import assert from "node:assert/strict";
import { dependencyHint } from "./dependency_hint.ts";

Deno.test("dependencyHint() names the missing module, the dirs the trees had, and the three ways", () => {
  const node = dependencyHint("Error: Cannot find module 'mocha'\nRequire stack:", undefined)!;
  assert.match(node, /"mocha"/);
  assert.match(node, /node_modules/);
  for (const way of ["reuse", "setup", ".worktreeinclude"]) assert.ok(node.includes(way), way);
  const py = dependencyHint("ModuleNotFoundError: No module named 'pytest'", {
    ecosystems: [{ ecosystem: "python", source: "none", reason: "setup is off in the config" }],
    dirs: [],
    include: [],
  })!;
  assert.match(py, /"pytest"/);
  assert.match(py, /setup is off in the config/);
  assert.match(dependencyHint("sh: 1: mocha: not found", undefined)!, /"mocha".*node_modules\/\.bin/);
});

Deno.test("dependencyHint() stays quiet for a failure that is not a missing dependency", () => {
  assert.equal(dependencyHint("AssertionError: expected 5, got -1", undefined), null);
});
