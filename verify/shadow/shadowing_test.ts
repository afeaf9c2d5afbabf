import assert from "node:assert/strict";
import { argvModules } from "./python_names.ts";
import { importableNames, type ShadowInputs, shadowIssues, treeOwnedNames } from "./shadowing.ts";

const PYTEST = [["python3", "-m", "pytest", "-q"]];

function flagged(
  added: string[],
  options: Partial<ShadowInputs> & { base?: string[]; modified?: string[]; mode?: string } = {},
): string[] {
  const base = options.base ?? ["calc.py", "tests/test_calc.py"];
  const files = [
    ...added.map((path) => ({
      path,
      status: "added" as const,
      oldMode: null,
      newMode: options.mode ?? "100644",
    })),
    ...(options.modified ?? []).map((path) => ({
      path,
      status: "modified" as const,
      oldMode: "100644",
      newMode: "100644",
    })),
  ];
  return shadowIssues({
    files,
    tree: new Set([...base, ...added]),
    baseTree: new Set(base),
    argv: options.argv ?? PYTEST,
    pathDirs: options.pathDirs ?? [],
    installed: options.installed ?? new Set(),
  }).map((i) => i.file);
}

Deno.test("shadowIssues() flags a runner, a runner's module and a stdlib module added where Python imports them first", () => {
  for (
    const path of [
      "pytest.py",
      "_pytest/__init__.py",
      "unittest/__init__.py",
      "difflib.py",
      "tests/difflib.py",
    ]
  ) {
    assert.deepEqual(flagged([path]), [path], path);
  }
  assert.deepEqual(flagged(["pluggy/_hooks.py", "pytest_cheat.py", "sitecustomize.py"]), [
    "pluggy/_hooks.py",
    "pytest_cheat.py",
    "sitecustomize.py",
  ]);
  assert.deepEqual(flagged(["json.cpython-311-x86_64-linux-gnu.so", "inspect.pyc"]).length, 2);
});

Deno.test("shadowIssues() leaves the project's own modules alone: packages, new names, names it already had", () => {
  assert.deepEqual(flagged(["calc_helpers.py", "tests/test_more.py", "test/test_x.py"]), []);
  assert.deepEqual(
    flagged(["src/mypkg/json.py", "src/mypkg/types.py"], { base: ["src/mypkg/__init__.py"] }),
    [],
    "a submodule of a package is no top-level module",
  );
  assert.deepEqual(
    flagged(["tests/json.py"], { base: ["tests/__init__.py"] }),
    [],
    "tests/ is a package here",
  );
  assert.deepEqual(
    flagged(["http/client.py"], { base: ["http/server.py"] }),
    [],
    "the base already had http/",
  );
  assert.deepEqual(flagged(["README.md", "json/data.json"]), [], "only Python modules can shadow one");
  assert.deepEqual(flagged([], { modified: ["difflib.py"], base: ["difflib.py"] }), [], "edits of its own");
});

Deno.test("shadowIssues() flags the modules a check's argv names and its installed dependencies", () => {
  assert.deepEqual(flagged(["mytool.py"], { argv: [["python", "-m", "mytool"]] }), ["mytool.py"]);
  assert.deepEqual(flagged(["myplug.py"], { argv: [["pytest", "-p", "myplug"]] }), ["myplug.py"]);
  assert.deepEqual(flagged(["numpy/__init__.py"], { installed: new Set(["numpy"]) }), ["numpy/__init__.py"]);
  assert.deepEqual(flagged(["numpy/__init__.py"]), [], "not installed: the project's own new package");
});

Deno.test("shadowIssues() flags package metadata, .pth files, node_modules and Yarn's store in any change", () => {
  const paths = [
    "cheat.dist-info/entry_points.txt",
    "x.egg-info/entry_points.txt",
    "lib/evil.pth",
    "node_modules/.bin/node",
    "tests/node_modules/chai/index.js",
    ".yarn/releases/yarn-4.cjs",
    ".pnp.cjs",
  ];
  assert.deepEqual(flagged(paths), paths);
  assert.deepEqual(flagged([], { modified: ["node_modules/x/index.js"] }), ["node_modules/x/index.js"]);
});

Deno.test("shadowIssues() flags a new executable in a tree directory on the checks' PATH, and nothing else there", () => {
  assert.deepEqual(flagged(["node"], { pathDirs: [""], mode: "100755" }), ["node"]);
  assert.deepEqual(flagged(["bin/make"], { pathDirs: ["bin"], mode: "120000" }), ["bin/make"]);
  assert.deepEqual(flagged(["notes.md"], { pathDirs: [""] }), [], "not executable: never run from PATH");
  assert.deepEqual(flagged(["tools/make"], { pathDirs: ["bin"], mode: "100755" }), []);
});

Deno.test("importableNames() gives every name a module could be imported under", () => {
  const tree = new Set(["a/b/__init__.py", "a/b/c.py"]);
  assert.deepEqual(importableNames("a/b/c.py", tree), [{ dir: "", name: "a" }, { dir: "a", name: "b" }]);
  assert.deepEqual(importableNames("a/b/data.txt", tree), []);
});

Deno.test("argvModules() reads -m and pytest's -p, not a script's own arguments", () => {
  assert.deepEqual(argvModules([["python3", "-W", "error", "-m", "pytest", "-p", "xdist", "-pno:cov"]]), [
    "pytest",
    "xdist",
  ]);
  assert.deepEqual(argvModules([["python", "-mmytool.cli"]]), ["mytool"]);
  assert.deepEqual(argvModules([["python", "run.py", "-m", "x"], ["npm", "-m", "y"]]), []);
});

Deno.test("treeOwnedNames() lists the protected names the base tree itself provides", () => {
  const base = new Set(["secrets.py", "tests/code.py", "pkg/__init__.py", "pkg/json.py", "calc.py"]);
  assert.deepEqual(treeOwnedNames(base, ["secrets", "code", "json", "pytest"]), ["code", "secrets"]);
});
