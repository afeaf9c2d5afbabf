/**
 * `deno task demo` (README's first command) leaves nothing in the temporary directory: a newcomer found a
 * `spot-test-*` directory left in /tmp after every demo. It removes its workspace when it ends, and keeps it
 * (saying where) only when asked with `--keep`.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { spawnProcess } from "../../sandbox/spawn.ts";
import { ROOT } from "../helpers.ts";

async function demo(tmp: string, ...args: string[]) {
  const env = { ...Deno.env.toObject(), TMPDIR: tmp, NO_COLOR: "1" };
  const argv = [Deno.execPath(), "run", "--no-prompt", "--allow-all", "--config", join(ROOT, "deno.json")];
  return await spawnProcess([...argv, join(ROOT, "tests", "demo.ts"), ...args], { cwd: ROOT, env });
}

const entries = async (dir: string) => (await Array.fromAsync(Deno.readDir(dir))).map((e) => e.name);

Deno.test("deno task demo integrates the fix and leaves nothing in TMPDIR", async () => {
  const tmp = await Deno.makeTempDir({ prefix: "spot-demo-tmp-" });
  try {
    const r = await demo(tmp);
    assert.equal(r.exitCode, 0, r.stdout + r.stderr);
    assert.match(r.stdout, /The fix landed as commit [0-9a-f]{12} /);
    assert.match(r.stdout, /Removed the demo's workspace .*deno task demo --keep/);
    assert.deepEqual(await entries(tmp), [], "nothing left behind");
  } finally {
    await Deno.remove(tmp, { recursive: true });
  }
});

Deno.test("deno task demo --keep keeps the workspace, with the fix on the repo's source branch", async () => {
  const tmp = await Deno.makeTempDir({ prefix: "spot-demo-tmp-" });
  try {
    const r = await demo(tmp, "--keep");
    assert.equal(r.exitCode, 0, r.stdout + r.stderr);
    const repo = /The fix is on the source branch of (\S+) /.exec(r.stdout)?.[1] ?? "";
    assert.ok(repo.startsWith(tmp), r.stdout);
    assert.match(await Deno.readTextFile(join(repo, "add.ts")), /a \+ b/);
    assert.match(r.stdout, /Kept \(--keep\): /);
  } finally {
    await Deno.remove(tmp, { recursive: true });
  }
});
