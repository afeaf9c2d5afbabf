import assert from "node:assert/strict";
import { join } from "node:path";
import { spawnProcess } from "../../sandbox/spawn.ts";
import { which } from "../../sandbox/which.ts";
import { outsidePath, PYTHON_GUARD_DIR, pythonGuardEnv, treePathDirs } from "./runner_guard.ts";

Deno.test("outsidePath() drops empty, relative and in-tree PATH entries, and keeps the rest in order", () => {
  const path = ".:/usr/bin::node_modules/.bin:/wt/bin:/repo/.venv/bin:/wt/.venv/bin:/opt/x/bin";
  assert.equal(outsidePath(path, ["/wt"]), "/usr/bin:/repo/.venv/bin:/opt/x/bin");
  assert.equal(
    outsidePath(path, ["/wt"], ["/wt/.venv"]),
    "/usr/bin:/repo/.venv/bin:/wt/.venv/bin:/opt/x/bin",
  );
  assert.equal(outsidePath("/wtx/bin:/usr/bin", ["/wt"]), "/wtx/bin:/usr/bin", "a sibling is not inside");
});

Deno.test("treePathDirs() names the tree directories a PATH searches, relative to the tree", () => {
  const path = ".:/usr/bin::./bin/:node_modules/.bin:../up:/wt/tools:/repo/.venv/bin";
  assert.deepEqual(treePathDirs(path, ["/wt", "/repo"]), [
    "",
    "bin",
    "node_modules/.bin",
    "tools",
    ".venv/bin",
  ]);
});

Deno.test("pythonGuardEnv() turns on safe-path mode and puts spot's guard before the contract's PYTHONPATH", () => {
  const env = pythonGuardEnv({
    tree: "/wt",
    contractEnv: { PYTHONPATH: "src" },
    protect: ["pytest", "pytest_*", "secrets"],
    owned: ["secrets"],
    guardDir: "/opt/spot/isolation/runner_guard/python",
  });
  assert.deepEqual(env, {
    PYTHONSAFEPATH: "1",
    PYTHONPATH: "/opt/spot/isolation/runner_guard/python:src",
    SPOT_CHECK_TREE: "/wt",
    SPOT_PY_PROTECT: "pytest,pytest_*",
    SPOT_PY_TREE_NAMES: "secrets",
  });
  assert.deepEqual(
    pythonGuardEnv({ tree: "/wt", contractEnv: {}, protect: [], owned: [], guardDir: null }),
    {},
  );
});

/** A tree with the worker's shadows planted beside a buggy module and its test. */
async function plantedTree(): Promise<string> {
  const tree = await Deno.realPath(await Deno.makeTempDir({ prefix: "spot-guard-" }));
  const exit0 = (what: string) => `import os\nprint("HIJACKED ${what}", flush=True)\nos._exit(0)\n`;
  const files: Record<string, string> = {
    "calc.py": "def add(a, b):\n    return a - b\n",
    "tests/test_calc.py": [
      "import unittest",
      "from calc import add",
      "class T(unittest.TestCase):",
      "    def test_add(self):",
      "        self.assertEqual(add(2, 3), 5)",
      "",
    ].join("\n"),
    "unittest/__init__.py": exit0("unittest"),
    "difflib.py": exit0("difflib"),
    "cheat.dist-info/METADATA": "Metadata-Version: 2.1\nName: cheat\nVersion: 1\n",
    "cheat.dist-info/entry_points.txt": "[pytest11]\ncheat = cheatplug\n",
    "cheatplug.py": exit0("pytest plugin"),
  };
  for (const [rel, text] of Object.entries(files)) {
    await Deno.mkdir(join(tree, rel, ".."), { recursive: true });
    await Deno.writeTextFile(join(tree, rel), text);
  }
  return tree;
}

Deno.test({
  name: "the Python guard runs the real unittest and pytest over a tree of shadows, and the tree's own code",
  ignore: which("python3", Deno.env.get("PATH") ?? "") === null,
  fn: async () => {
    const tree = await plantedTree();
    // The interpreter itself, not a version manager's shim (which needs the user's HOME).
    const python = (await spawnProcess(["python3", "-c", "import sys; print(sys.executable)"], {
      env: { PATH: Deno.env.get("PATH") ?? "", HOME: Deno.env.get("HOME") ?? "/" },
    })).stdout.trim();
    try {
      const run = (argv: string[], guarded: boolean) =>
        spawnProcess(argv, {
          cwd: tree,
          env: {
            PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin",
            HOME: tree,
            PYTHONDONTWRITEBYTECODE: "1",
            ...(guarded
              ? pythonGuardEnv({
                tree,
                contractEnv: {},
                protect: ["pytest", "_pytest", "pluggy", "pytest_*", "sitecustomize"],
                owned: [],
                guardDir: PYTHON_GUARD_DIR,
              })
              : {}),
          },
          timeoutMs: 60_000,
        });
      const unittest = [python, "-m", "unittest", "discover", "-s", "tests"];
      const bare = await run(unittest, false);
      assert.match(
        bare.stdout,
        /HIJACKED unittest/,
        `without the guard the planted runner runs: ${python} ${bare.stderr}`,
      );
      assert.equal(bare.exitCode, 0);
      const guarded = await run(unittest, true);
      assert.doesNotMatch(guarded.stdout + guarded.stderr, /HIJACKED/);
      assert.match(guarded.stderr, /AssertionError: -1 != 5/, "the real runner, the tree's own calc.py");
      assert.equal(guarded.exitCode, 1);
      await Deno.remove(join(tree, "unittest"), { recursive: true });
      assert.match((await run(unittest, false)).stdout, /HIJACKED difflib/, "the stdlib module it imports");
      assert.doesNotMatch((await run(unittest, true)).stdout, /HIJACKED/);
      const hasPytest = (await run([python, "-c", "import pytest"], false)).exitCode === 0;
      if (hasPytest) {
        const pytest = [python, "-m", "pytest", "-q", "-p", "no:cacheprovider", "tests"];
        assert.match((await run(pytest, false)).stdout, /HIJACKED/, "a plugin the tree's metadata registers");
        const real = await run(pytest, true);
        assert.doesNotMatch(real.stdout, /HIJACKED/);
        assert.match(real.stdout, /1 failed/);
      }
    } finally {
      await Deno.remove(tree, { recursive: true });
    }
  },
});
