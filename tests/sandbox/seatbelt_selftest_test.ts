/**
 * The Seatbelt self-test's probes, run here through the same runner seam the Mac uses: under the real bwrap
 * (a real sandbox: every probe must hold), under no sandbox (every attack must land and be named), and under
 * a bwrap given one hole (exactly that hole must be named). No Mac has run them: see docs/sandbox.md.
 * The argv spot builds for a Mac runs here too, without sandbox-exec: its environment, scratch dirs and
 * bridge must work (every control passes), and only the profile it could not apply is missing.
 */
import assert from "node:assert/strict";
import { dirname, join } from "node:path";
import { bwrapArgv } from "../../sandbox/backends/bwrap.ts";
import { seatbeltArgv } from "../../sandbox/backends/seatbelt.ts";
import { systemView } from "../../sandbox/host_paths.ts";
import { BRIDGE_PORT, type SandboxPolicy } from "../../sandbox/sandbox_policy.ts";
import {
  LAB,
  runSelfTest,
  type SelfTestOptions,
  type SelfTestRunner,
} from "../../sandbox/backends/seatbelt_selftest.ts";
import { spawnProcess } from "../../sandbox/spawn.ts";
import { which } from "../../sandbox/which.ts";
import { ROOT } from "../helpers.ts";

const BWRAP = which("bwrap", "/usr/bin:/bin")!;

async function options(): Promise<SelfTestOptions> {
  return {
    labRoot: await Deno.makeTempDir({ prefix: "spot-sbt-" }),
    deno: Deno.execPath(),
    bridgeScript: join(ROOT, "sandbox", "bridge.ts"),
    shell: "/bin/sh",
    system: systemView(),
    forwarderPort: BRIDGE_PORT,
  };
}

const underBwrap = (change: (p: SandboxPolicy) => SandboxPolicy = (p) => p): SelfTestRunner => ({
  run: (policy, argv, { timeoutMs }) =>
    spawnProcess(bwrapArgv(BWRAP, change(policy), argv), { env: {}, timeoutMs }),
});
/** What a profile that grants everything would do: the command runs as the user. */
const open: SelfTestRunner = {
  run: (policy, argv, { timeoutMs }) => spawnProcess(argv, { env: policy.env, cwd: policy.cwd, timeoutMs }),
};

Deno.test("the self-test passes under a real sandbox (bwrap): every control works and every attack is contained", async () => {
  const report = await runSelfTest(underBwrap(), await options());
  assert.deepEqual(report.failed, [], JSON.stringify(report.failed, null, 1));
  assert.equal(report.passed, true);
  assert.deepEqual(report.outcomes.map((o) => o.id), [
    "control:run",
    "control:read-grant",
    "control:write-worktree",
    "control:forwarder",
    "read:outside",
    "write:outside",
    "write:locked",
    "write:symlink",
    "write:hardlink",
    "net:other-port",
    "net:unix-socket",
    "proc:signal-outside",
  ]);
});

Deno.test("the self-test fails without a sandbox and names every attack that landed", async () => {
  const o = await options();
  const report = await runSelfTest(open, o);
  assert.equal(report.passed, false);
  const failed = report.failed.map((f) => f.id);
  // Nothing listens on the forwarder's port on the host: without the bridge the control fails too.
  assert.deepEqual(failed, [
    "control:forwarder",
    "read:outside",
    "write:outside",
    "write:locked",
    "write:symlink",
    "write:hardlink",
    "net:other-port",
    "net:unix-socket",
    "proc:signal-outside",
  ]);
  assert.match(report.failed[2].detail, /a file was written outside the worktree/);
  assert.equal(await Deno.stat(o.labRoot).catch(() => null), null, "the lab is removed");
});

Deno.test("a sandbox with one hole fails the self-test on exactly the probes that use it", async () => {
  // A profile bug: the directory beside the worktree became writable.
  const leaky = underBwrap((p) => ({ ...p, writable: [...p.writable, join(dirname(p.cwd), LAB.outside)] }));
  const report = await runSelfTest(leaky, await options());
  assert.deepEqual(report.failed.map((f) => f.id), ["read:outside", "write:outside", "write:symlink"]);
});

Deno.test("the Seatbelt argv without sandbox-exec runs its wrapper, env and bridge: every control passes, only the profile is missing", async () => {
  const o = await options();
  const seatbeltOptions = { scratchRoot: join(o.labRoot, LAB.scratch), inPlaceUnder: o.labRoot };
  // From `/usr/bin/env -i` on, in a network namespace of its own so the bridge's port is private to it.
  const plumbing: SelfTestRunner = {
    run: (policy, argv, { timeoutMs }) => {
      const macArgv = seatbeltArgv("/usr/bin/sandbox-exec", policy, argv, seatbeltOptions);
      assert.deepEqual(macArgv.slice(0, 2), ["/usr/bin/sandbox-exec", "-p"]);
      const netns = [BWRAP, "--dev-bind", "/", "/", "--unshare-net", "--die-with-parent", "--"];
      return spawnProcess([...netns, ...macArgv.slice(3)], { env: {}, timeoutMs });
    },
  };
  const report = await runSelfTest(plumbing, o);
  assert.deepEqual(
    report.outcomes.filter((x) => x.kind === "control" && !x.ok),
    [],
    JSON.stringify(report.outcomes),
  );
  assert.deepEqual(report.failed.map((f) => f.id), [
    "read:outside",
    "write:outside",
    "write:locked",
    "write:symlink",
    "write:hardlink",
    "net:unix-socket",
    "proc:signal-outside",
  ]);
});
