import assert from "node:assert/strict";
import { isSpotError } from "../errors.ts";
import { type EnvReader, resolvePaths, runDir } from "./paths.ts";

const envOf = (vars: Record<string, string>): EnvReader => (name) =>
  Object.hasOwn(vars, name) ? vars[name] : undefined;

Deno.test("resolvePaths() puts everything under HOME by default", () => {
  assert.deepEqual(resolvePaths(envOf({ HOME: "/home/u" })), {
    configFile: "/home/u/.config/pi-worker/config.json",
    stateRoot: "/home/u/.local/state/pi-worker",
    cacheRoot: "/home/u/.cache/pi-worker",
    runsDir: "/home/u/.local/state/pi-worker/runs",
    worktreesDir: "/home/u/.cache/pi-worker/worktrees",
    auditFile: "/home/u/.local/state/pi-worker/audit.jsonl",
    admissionLock: "/home/u/.local/state/pi-worker/admission.lock",
  });
});

Deno.test("resolvePaths() uses the XDG directories over HOME", () => {
  const p = resolvePaths(envOf({
    HOME: "/home/u",
    XDG_CONFIG_HOME: "/xdg/config",
    XDG_STATE_HOME: "/xdg/state",
    XDG_CACHE_HOME: "/xdg/cache",
  }));
  assert.equal(p.configFile, "/xdg/config/pi-worker/config.json");
  assert.equal(p.stateRoot, "/xdg/state/pi-worker");
  assert.equal(p.cacheRoot, "/xdg/cache/pi-worker");
  assert.equal(p.runsDir, "/xdg/state/pi-worker/runs");
  assert.equal(p.worktreesDir, "/xdg/cache/pi-worker/worktrees");
});

Deno.test("resolvePaths() uses XDG directories even when HOME is unset", () => {
  const p = resolvePaths(envOf({ XDG_CONFIG_HOME: "/c", XDG_STATE_HOME: "/s", XDG_CACHE_HOME: "/k" }));
  assert.equal(p.configFile, "/c/pi-worker/config.json");
  assert.equal(p.stateRoot, "/s/pi-worker");
  assert.equal(p.cacheRoot, "/k/pi-worker");
});

Deno.test("resolvePaths() lets the PI_WORKER_* overrides win over XDG and HOME", () => {
  const p = resolvePaths(envOf({
    HOME: "/home/u",
    XDG_CONFIG_HOME: "/xdg/config",
    XDG_STATE_HOME: "/xdg/state",
    XDG_CACHE_HOME: "/xdg/cache",
    PI_WORKER_CONFIG: "/o/config.json",
    PI_WORKER_STATE_DIR: "/o/state",
    PI_WORKER_CACHE_DIR: "/o/cache",
  }));
  assert.deepEqual(p, {
    configFile: "/o/config.json",
    stateRoot: "/o/state",
    cacheRoot: "/o/cache",
    runsDir: "/o/state/runs",
    worktreesDir: "/o/cache/worktrees",
    auditFile: "/o/state/audit.jsonl",
    admissionLock: "/o/state/admission.lock",
  });
});

Deno.test("resolvePaths() lets each override win on its own while the others fall back", () => {
  const p = resolvePaths(envOf({ HOME: "/home/u", PI_WORKER_STATE_DIR: "/o/state" }));
  assert.equal(p.stateRoot, "/o/state");
  assert.equal(p.configFile, "/home/u/.config/pi-worker/config.json");
  assert.equal(p.cacheRoot, "/home/u/.cache/pi-worker");
});

Deno.test("resolvePaths() works without HOME when all three overrides are set", () => {
  const p = resolvePaths(
    envOf({ PI_WORKER_CONFIG: "/c.json", PI_WORKER_STATE_DIR: "/s", PI_WORKER_CACHE_DIR: "/k" }),
  );
  assert.equal(p.stateRoot, "/s");
});

Deno.test("resolvePaths() throws when HOME is unset and a directory has no override", () => {
  assert.throws(() => resolvePaths(envOf({})), /HOME is not set/);
  assert.throws(
    () => resolvePaths(envOf({ PI_WORKER_CONFIG: "/c.json", PI_WORKER_STATE_DIR: "/s" })),
    /HOME is not set/,
  );
});

Deno.test("runDir() is the run's directory under runsDir", () => {
  const p = resolvePaths(envOf({ HOME: "/home/u" }));
  assert.equal(runDir(p, "run-42"), "/home/u/.local/state/pi-worker/runs/run-42");
});

// Regression (fixed): store/paths.ts resolvePaths() uses `env("XDG_STATE_HOME") ?? ...`, so an empty XDG_* value
// (which the XDG spec says means "unset") yields the relative root "pi-worker" under the cwd.
Deno.test({
  name: "resolvePaths() treats an empty XDG_STATE_HOME as unset and stays absolute",
  fn: () => {
    const p = resolvePaths(
      envOf({ HOME: "/home/u", XDG_STATE_HOME: "", XDG_CONFIG_HOME: "", XDG_CACHE_HOME: "" }),
    );
    assert.equal(p.stateRoot, "/home/u/.local/state/pi-worker");
    assert.equal(p.configFile, "/home/u/.config/pi-worker/config.json");
    assert.equal(p.cacheRoot, "/home/u/.cache/pi-worker");
  },
});

Deno.test("runDir() refuses an id that would name a directory outside the runs folder", () => {
  const paths = resolvePaths(envOf({ HOME: "/home/u" }));
  assert.equal(
    runDir(paths, "run-20260101-abc123"),
    "/home/u/.local/state/pi-worker/runs/run-20260101-abc123",
  );
  for (const bad of ["../x", "a/b", "..", "", "ab", "/etc", ".hidden", "x\0y"]) {
    assert.throws(() => runDir(paths, bad), (e) => isSpotError(e, "RUN_NOT_FOUND"), bad);
  }
});
