/**
 * The decision a Mac gets, made here on Linux through the platform seam (`SandboxHost`): `auto` takes
 * Seatbelt only after the self-test passed, refuses with SANDBOX_UNAVAILABLE naming the probe that failed,
 * and tests again when the OS version changes. The self-test runs for real, with bwrap standing in for
 * Seatbelt behind the runner seam (whole, then with one hole), so the probes, the verdict, its cache and
 * the decision are the code a Mac runs; only sandbox-exec itself is not.
 */
import assert from "node:assert/strict";
import { dirname, join } from "node:path";
import { createContext } from "../../config/context.ts";
import { isSpotError } from "../../errors.ts";
import { decideSandbox, sandboxForRun, type SandboxHost } from "../../isolation/run_sandbox.ts";
import { factsKey, seatbeltVerdict } from "../../isolation/seatbelt_verdict.ts";
import { bwrapArgv } from "../../sandbox/backends/bwrap.ts";
import { systemView } from "../../sandbox/host_paths.ts";
import { BRIDGE_PORT, type SandboxPolicy } from "../../sandbox/sandbox_policy.ts";
import { LAB, runSelfTest, type SelfTestRunner } from "../../sandbox/backends/seatbelt_selftest.ts";
import { spawnProcess } from "../../sandbox/spawn.ts";
import { which } from "../../sandbox/which.ts";
import type { RunState } from "../../schemas/run_state.ts";
import { ROOT } from "../helpers.ts";

const BWRAP = which("bwrap", "/usr/bin:/bin")!;
const underBwrap = (change: (p: SandboxPolicy) => SandboxPolicy): SelfTestRunner => ({
  run: (policy, argv, { timeoutMs }) =>
    spawnProcess(bwrapArgv(BWRAP, change(policy), argv), { env: {}, timeoutMs }),
});
const whole = underBwrap((p) => p);
const leaky = underBwrap((p) => ({ ...p, writable: [...p.writable, join(dirname(p.cwd), LAB.outside)] }));

/** A Mac at `os.version` whose Seatbelt behaves like `os.runner`; counts the self-test's runs. */
function mac(cacheDir: string, os: { version: string; runner: SelfTestRunner; runs: number }): SandboxHost {
  return {
    os: "darwin",
    bwrap: () => Promise.reject(new Error("bwrap is never probed on macOS")),
    seatbelt: () =>
      seatbeltVerdict(
        {
          sandboxExec: "/usr/bin/sandbox-exec",
          osVersion: os.version,
          key: factsKey({
            osVersion: os.version,
            sandboxExec: "/usr/bin/sandbox-exec:1:2:3:4",
            deno: "deno",
            uid: 501,
          }),
        },
        {
          cacheDir,
          now: () => new Date().toISOString(),
          selfTest: async () => {
            os.runs++;
            return runSelfTest(os.runner, {
              labRoot: await Deno.makeTempDir({ prefix: "spot-sbt-" }),
              deno: Deno.execPath(),
              bridgeScript: join(ROOT, "sandbox", "bridge.ts"),
              shell: "/bin/sh",
              system: systemView(),
              forwarderPort: BRIDGE_PORT,
            });
          },
        },
      ),
  };
}

Deno.test("on a Mac, auto takes Seatbelt once its self-test passed, names the failed probe, and retests after an OS update", async () => {
  const dir = await Deno.makeTempDir();
  const vars: Record<string, string> = {
    PI_WORKER_STATE_DIR: join(dir, "state"),
    PI_WORKER_CONFIG: join(dir, "config.json"),
    PI_WORKER_CACHE_DIR: join(dir, "cache"),
  };
  const ctx = await createContext({ env: (k) => vars[k] });
  const os = { version: "macOS 14.5 (23F79), Darwin 23.5.0", runner: whole, runs: 0 };
  const cacheDir = join(dir, "cache", "seatbelt-selftest");
  try {
    const decided = await decideSandbox(ctx, { host: mac(cacheDir, os) });
    assert.deepEqual([decided.level, decided.details.backend, decided.details.choice], [
      "os",
      "seatbelt",
      "auto",
    ]);
    assert.equal(decided.details.seatbelt?.osVersion, os.version);
    assert.equal(decided.details.seatbelt?.path, "/usr/bin/sandbox-exec");
    await decideSandbox(ctx, { host: mac(cacheDir, os) });
    assert.equal(os.runs, 1, "the pass is remembered for this OS version");

    // The run prepared under Seatbelt gets it at each launch, its scratch dirs under the run dir.
    const state = { runId: "run-1", sandboxDetails: decided.details } as RunState;
    const box = await sandboxForRun(ctx, state, { host: mac(cacheDir, os) });
    assert.equal(box.backend.name, "seatbelt");
    assert.equal(box.backend.program(["x"]), "/usr/bin/sandbox-exec");

    // macOS is updated, and this version's Seatbelt has a hole: the self-test runs again and refuses.
    os.version = "macOS 14.6 (23G80), Darwin 23.6.0";
    os.runner = leaky;
    const refused = await decideSandbox(ctx, { host: mac(cacheDir, os) }).catch((e) => e);
    assert.equal(os.runs, 2);
    assert.ok(isSpotError(refused, "SANDBOX_UNAVAILABLE"), String(refused));
    assert.match(refused.message, /failed its self-test on macOS 14\.6 \(23G80\).*: read:outside: /);
    assert.match(refused.message, /\(and write:outside, write:symlink\)/);
    assert.match(refused.message, /--sandbox none/);
    assert.deepEqual([refused.details.failedProbe, refused.details.osVersion], ["read:outside", os.version]);
    // A run prepared before the update stops too, rather than run under the Seatbelt that failed.
    const stopped = await sandboxForRun(ctx, state, { host: mac(cacheDir, os) }).catch((e) => e);
    assert.ok(isSpotError(stopped, "SANDBOX_UNAVAILABLE"));
    assert.equal(os.runs, 3, "a failure is never remembered");

    // On Linux a run recorded under Seatbelt is refused, never run under another backend.
    const linux: SandboxHost = { ...mac(cacheDir, os), os: "linux" };
    const elsewhere = await sandboxForRun(ctx, state, { host: linux }).catch((e) => e);
    assert.ok(isSpotError(elsewhere, "SANDBOX_UNAVAILABLE"));
    assert.match(elsewhere.message, /runs only on macOS/);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
