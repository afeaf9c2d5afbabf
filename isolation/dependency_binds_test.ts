import assert from "node:assert/strict";
import type { DependencyRecord } from "../schemas/dependency_record.ts";
import { dependencyBinds } from "./dependency_binds.ts";

const RECORD: DependencyRecord = {
  ecosystems: [],
  dirs: [{ path: "node_modules", from: "/src/node_modules" }, {
    path: ".venv",
    from: "/cache/deps/k/tree/.venv",
  }],
  include: [],
};

Deno.test("dependencyBinds() shows each dir in the tree and at its own path, read-only", () => {
  assert.deepEqual(dependencyBinds(RECORD, "/wt", () => false), [
    { from: "/src/node_modules", to: "/wt/node_modules" },
    { from: "/src/node_modules", to: "/src/node_modules" },
    { from: "/cache/deps/k/tree/.venv", to: "/wt/.venv" },
    { from: "/cache/deps/k/tree/.venv", to: "/cache/deps/k/tree/.venv" },
  ]);
});

Deno.test("dependencyBinds() leaves a dir the tree already has to it, and does nothing without a record", () => {
  assert.deepEqual(dependencyBinds(RECORD, "/src", (p) => p === "/src/node_modules" || p === "/src/.venv"), [
    { from: "/src/node_modules", to: "/src/node_modules" },
    { from: "/cache/deps/k/tree/.venv", to: "/cache/deps/k/tree/.venv" },
  ]);
  assert.deepEqual(dependencyBinds(undefined, "/wt", () => false), []);
});
