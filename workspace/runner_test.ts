import assert from "node:assert/strict";
import { join } from "node:path";
import { pyenvTarget, resolveRunner } from "./runner.ts";

Deno.test("pyenvTarget: PYENV_VERSION, then .python-version, then the global version file", () => {
  const bin = "/h/.pyenv/shims/pytest";
  assert.equal(
    pyenvTarget({ bin, envVersion: "3.12.1", localVersion: "3.11.0\n", globalVersion: "3.10.2" }),
    "/h/.pyenv/versions/3.12.1/bin/pytest",
  );
  assert.equal(
    pyenvTarget({ bin, localVersion: "3.11.0\n", globalVersion: "3.10.2" }),
    "/h/.pyenv/versions/3.11.0/bin/pytest",
  );
  assert.equal(pyenvTarget({ bin, globalVersion: "3.10.2\n" }), "/h/.pyenv/versions/3.10.2/bin/pytest");
});

Deno.test("pyenvTarget: not a shim, `system`, or a version name that walks out of versions/ give null", () => {
  assert.equal(pyenvTarget({ bin: "/usr/bin/python3", globalVersion: "3.12.1" }), null);
  for (const bad of ["system", "../../.ssh", "..", "a/b", ""]) {
    assert.equal(pyenvTarget({ bin: "/h/.pyenv/shims/python3", localVersion: bad }), null, bad);
  }
});

async function executable(path: string, text = "#!/bin/sh\nexit 0\n") {
  await Deno.mkdir(join(path, ".."), { recursive: true });
  await Deno.writeTextFile(path, text);
  await Deno.chmod(path, 0o755);
}

Deno.test("resolveRunner follows a pyenv shim to the installed interpreter, and keeps the shim otherwise", async () => {
  const dir = await Deno.makeTempDir({ prefix: "spot-runner-" });
  try {
    const root = join(dir, ".pyenv");
    await executable(join(root, "shims", "python3"));
    await executable(join(root, "versions", "3.12.1", "bin", "python3"));
    await Deno.writeTextFile(join(root, "version"), "3.12.1\n");
    const project = join(dir, "project");
    await Deno.mkdir(project);
    const options = { cwd: project, pathVar: `${join(root, "shims")}:/usr/bin:/bin`, env: () => undefined };
    assert.equal(resolveRunner("python3", options), join(root, "versions", "3.12.1", "bin", "python3"));
    // A version the project names but nobody installed: the shim stays (and says so when it runs).
    await Deno.writeTextFile(join(project, ".python-version"), "3.9.0\n");
    assert.equal(resolveRunner("python3", options), join(root, "shims", "python3"));
    await Deno.writeTextFile(join(project, ".python-version"), "../../../bin\n");
    assert.equal(resolveRunner("python3", options), join(root, "shims", "python3"));
    assert.equal(resolveRunner("sh", options), "/usr/bin/sh");
    assert.equal(resolveRunner("./run.sh", options), join(project, "run.sh"));
    assert.equal(resolveRunner("no-such-tool-xyz", options), "no-such-tool-xyz");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
