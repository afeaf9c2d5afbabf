/**
 * `deno run -A bench/sandbox_bench.ts`: what one sandboxed step costs. The
 * same command (`true`) runs four ways, interleaved so machine noise hits
 * all alike: bare, under bwrap, in a permission-scoped Deno step, and in the
 * step under bwrap (how spot runs every check). Prints the medians and
 * `BENCH step_overhead_ms ratio=<ms> target=150`: scoped step + bwrap minus
 * the bare exec.
 */
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { denoRunArgv } from "../sandbox/deno_flags.ts";
import { bwrapArgv } from "../sandbox/backends/bwrap.ts";
import { probeBwrap } from "../sandbox/probe.ts";
import { systemView } from "../sandbox/host_paths.ts";
import {
  DEFAULT_LIMITS,
  HOME_SIZE_BYTES,
  type SandboxPolicy,
  TMP_SIZE_BYTES,
} from "../sandbox/sandbox_policy.ts";
import { spawnProcess } from "../sandbox/spawn.ts";
import { which } from "../sandbox/which.ts";
import type { VerifyStepSpec } from "../steps/protocol.ts";
import { benchLine, finishBench, median, quantile, range } from "./bench_line.ts";

/** Rounds of all four; the median of each is reported. */
const ROUNDS = 15;
const WARMUP = 2;
const TARGET_MS = 150;
const here = dirname(fileURLToPath(import.meta.url));

const probe = await probeBwrap({ pathVar: Deno.env.get("PATH") ?? "" });
if (!probe.available || !probe.path) {
  console.error(`sandbox bench: bwrap is not usable here: ${probe.reason}`);
  Deno.exit(1);
}
const bwrap = probe.path;
const trueBin = which("true", "/usr/bin:/bin")!;
const shell = which("sh", "/usr/bin:/bin")!;
const dir = await Deno.makeTempDir({ prefix: "spot-sbx-bench-" });
const worktree = join(dir, "wt");
await Deno.mkdir(worktree);
const view = systemView();
const policy: SandboxPolicy = {
  cwd: worktree,
  readOnly: view.readOnly,
  symlinks: view.symlinks,
  writable: [worktree],
  protected: [],
  binds: [],
  scratch: [{ path: "/tmp", sizeBytes: TMP_SIZE_BYTES }, {
    path: "/home/spot-check",
    sizeBytes: HOME_SIZE_BYTES,
  }],
  env: { PATH: "/usr/bin:/bin", HOME: "/home/spot-check", TMPDIR: "/tmp" },
  network: { mode: "none" },
  limits: { ...DEFAULT_LIMITS, prlimit: probe.prlimit },
  shell,
};
const sandboxed = bwrapArgv(bwrap, policy, [trueBin]);

/** A verify step running `command`, and its spec (on its stdin). */
function stepWay(command: string[], program: string): { argv: string[]; spec: string } {
  const spec: VerifyStepSpec = {
    cwd: worktree,
    commands: [{ argv: command, timeoutSeconds: 30, env: {}, passEnv: [] }],
    maxChars: 10_000,
  };
  const argv = denoRunArgv(Deno.execPath(), {
    script: join(here, "..", "steps", "verify_step.ts"),
    read: [],
    write: [],
    run: [program],
    env: [],
    net: [],
  }, []);
  return { argv, spec: JSON.stringify(spec) };
}

const ways: Record<string, { argv: string[]; spec?: string }> = {
  bare: { argv: [trueBin] },
  bwrap: { argv: sandboxed },
  step: stepWay([trueBin], trueBin),
  step_bwrap: stepWay(sandboxed, bwrap),
};
const times: Record<string, number[]> = Object.fromEntries(Object.keys(ways).map((k) => [k, []]));
const env = { PATH: "/usr/bin:/bin", NO_COLOR: "1", DENO_NO_UPDATE_CHECK: "1", HOME: dir };
const denoDir = Deno.env.get("DENO_DIR");
if (denoDir) Object.assign(env, { DENO_DIR: denoDir });

for (let round = 0; round < WARMUP + ROUNDS; round++) {
  for (const [name, way] of Object.entries(ways)) {
    const started = performance.now();
    const r = await spawnProcess(way.argv, { env, cwd: worktree, stdinText: way.spec });
    const ms = performance.now() - started;
    if (r.exitCode !== 0 || (name.startsWith("step") && !r.stdout.includes('"exitCode":0'))) {
      console.error(`sandbox bench: ${name} failed: ${r.stderr || r.stdout}`);
      Deno.exit(1);
    }
    if (round >= WARMUP) times[name].push(ms);
  }
}
await Deno.remove(dir, { recursive: true });

const m = Object.fromEntries(Object.entries(times).map(([k, v]) => [k, median(v)]));
for (const [name, ms] of Object.entries(m)) {
  console.log(`  ${name.padEnd(11)} median ${ms.toFixed(1)} ms (${range(times[name])})`);
}
console.log(
  `  bwrap alone adds ${(m.bwrap - m.bare).toFixed(1)} ms; the Deno step adds ${
    (m.step - m.bare).toFixed(1)
  } ms`,
);
// Each round's step_bwrap beside the same round's bare spawn: their differences' quartiles are the spread.
const overheads = times.step_bwrap.map((ms, i) => ms - times.bare[i]);
benchLine("step_overhead_ms", m.step_bwrap - m.bare, TARGET_MS, {
  spread: [quantile(overheads, 0.25), quantile(overheads, 0.75)],
  detail: `step_bwrap_ms=${m.step_bwrap.toFixed(1)} step_bwrap_spread_ms=${range(times.step_bwrap)} bare_ms=${
    m.bare.toFixed(1)
  } bare_spread_ms=${range(times.bare)} rounds=${ROUNDS}`,
});
finishBench();
