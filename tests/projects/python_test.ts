/**
 * A Python project with a `.venv` the user made (Debian's python3-venv, pytest from python3-pytest through
 * the system site-packages): the worker and the pristine-tree check see the source's `.venv` read-only, the
 * venv's own python runs pytest, and the fix integrates.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { spawnProcess } from "../../sandbox/spawn.ts";
import { checkOutput, projectLoop } from "./harness.ts";

/** The user's `python3 -m venv`, with a HOME of its own: tools on this machine's PATH leave files in HOME. */
async function makeVenv(repo: string): Promise<void> {
  const home = await Deno.makeTempDir({ prefix: "spot-venv-home-" });
  const r = await spawnProcess(["/usr/bin/python3", "-m", "venv", "--system-site-packages", ".venv"], {
    cwd: repo,
    env: { PATH: "/usr/bin:/bin", HOME: home },
  });
  await Deno.remove(home, { recursive: true });
  if (r.exitCode !== 0) throw new Error(`python3 -m venv failed: ${r.stderr}`);
}

const BUGGY = "def add(a, b):\n    return a - b\n";
const FIXED = "def add(a, b):\n    return a + b\n";
const TEST = "from calc import add\n\n\ndef test_add():\n    assert add(2, 3) == 5\n";

Deno.test("a python project: pi fixes it under bwrap and the .venv's python runs pytest", async () => {
  const r = await projectLoop({
    files: {
      "calc.py": BUGGY,
      "tests/test_calc.py": TEST,
      "requirements.txt": "pytest\n",
      "pytest.ini": "[pytest]\npythonpath = .\n",
      ".gitignore": ".venv/\n__pycache__/\n",
    },
    install: makeVenv,
    fix: { file: "calc.py", content: FIXED },
    allowedPaths: ["calc.py"],
    lockedPaths: ["tests/**"],
    verification: [{
      argv: [".venv/bin/python", "-m", "pytest", "-q", "-p", "no:cacheprovider"],
      timeoutSeconds: 120,
      env: { PYTHONDONTWRITEBYTECODE: "1" },
    }],
  });
  try {
    const deps = r.state.dependencies as { ecosystems: { ecosystem: string; source: string }[] };
    assert.deepEqual(deps.ecosystems.map((e) => `${e.ecosystem}:${e.source}`), ["python:reuse"]);
    assert.equal(r.verify.passed, true, await checkOutput(r.runDir));
    assert.match(await checkOutput(r.runDir), /1 passed/);
    assert.equal(r.integrate.status, "integrated", JSON.stringify(r.integrate));
    assert.equal(await Deno.readTextFile(join(r.repo, "calc.py")), FIXED);
  } finally {
    await Deno.remove(r.env.dir, { recursive: true });
  }
});
