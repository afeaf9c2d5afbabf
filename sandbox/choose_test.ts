import assert from "node:assert/strict";
import { parseChoice, resolveChoice } from "./choose.ts";
import type { BwrapProbe } from "./probe.ts";
import type { SeatbeltVerdict } from "./backends/seatbelt_result.ts";

const linux = (bwrap: BwrapProbe | null) => ({ os: "linux", bwrap, seatbelt: null });
const mac = (seatbelt: SeatbeltVerdict | null) => ({ os: "darwin", bwrap: null, seatbelt });
const PASSED: SeatbeltVerdict = {
  available: true,
  path: "/usr/bin/sandbox-exec",
  osVersion: "macOS 14.5 (23F79), Darwin 23.5.0",
  testedAt: "2025-01-01T00:00:00.000Z",
  cached: true,
  failedProbe: null,
  reason: null,
};
const FAILED: SeatbeltVerdict = {
  ...PASSED,
  available: false,
  cached: false,
  failedProbe: "write:hardlink",
  reason: "Seatbelt failed its self-test on macOS 14.5 (23F79), Darwin 23.5.0: write:hardlink: a hard link " +
    "changed a read-only file",
};

const WORKS: BwrapProbe = {
  available: true,
  path: "/usr/bin/bwrap",
  version: "0.8.0",
  reason: null,
  prlimit: null,
};
const MISSING: BwrapProbe = {
  available: false,
  path: null,
  version: null,
  reason: "bwrap was not found",
  prlimit: null,
};
const BLOCKED: BwrapProbe = {
  available: false,
  path: "/usr/bin/bwrap",
  version: "0.8.0",
  reason: "bwrap 0.8.0 cannot create a sandbox here: setting up uid map: Permission denied",
  prlimit: null,
};

Deno.test("resolveChoice() gives auto the bwrap backend on Linux when the probe passes", () => {
  assert.deepEqual(resolveChoice("auto", linux(WORKS)), { ok: true, backend: "bwrap", level: "os" });
  assert.deepEqual(resolveChoice("bwrap", linux(WORKS)), { ok: true, backend: "bwrap", level: "os" });
});

Deno.test("resolveChoice() refuses auto without bwrap and names the install and --sandbox none", () => {
  const r = resolveChoice("auto", linux(MISSING));
  assert.equal(r.ok, false);
  if (r.ok) return;
  assert.match(r.fix, /apt-get install bubblewrap/);
  assert.match(r.fix, /--sandbox none/);
});

Deno.test("resolveChoice() refuses a bwrap that cannot make namespaces and says how to allow them", () => {
  const r = resolveChoice("bwrap", linux(BLOCKED));
  assert.equal(r.ok, false);
  if (r.ok) return;
  assert.match(r.reason, /uid map/);
  assert.match(r.fix, /user namespaces/);
});

Deno.test("resolveChoice() gives auto on macOS Seatbelt only when its self-test passed on this Mac", () => {
  assert.deepEqual(resolveChoice("auto", mac(PASSED)), { ok: true, backend: "seatbelt", level: "os" });
  const failed = resolveChoice("auto", mac(FAILED));
  assert.equal(failed.ok, false);
  if (!failed.ok) {
    assert.match(failed.reason, /write:hardlink: a hard link changed a read-only file/);
    assert.match(failed.fix, /--sandbox none/);
  }
  const untested = resolveChoice("auto", mac(null));
  assert.equal(untested.ok, false);
  const noExec = resolveChoice(
    "auto",
    mac({ ...FAILED, path: null, failedProbe: null, reason: "no sandbox-exec" }),
  );
  assert.equal(!noExec.ok && /sandbox-exec is missing/.test(noExec.fix), true);
});

Deno.test("resolveChoice() never falls back: bwrap on macOS and auto elsewhere refuse rather than run unsandboxed", () => {
  assert.equal(resolveChoice("bwrap", mac(PASSED)).ok, false);
  const windows = resolveChoice("auto", { os: "windows", bwrap: null, seatbelt: null });
  assert.equal(windows.ok, false);
  // A passing Seatbelt verdict means nothing on Linux, and a bwrap probe nothing on macOS.
  assert.equal(resolveChoice("auto", { os: "linux", bwrap: null, seatbelt: PASSED }).ok, false);
  assert.equal(resolveChoice("auto", { os: "darwin", bwrap: WORKS, seatbelt: null }).ok, false);
});

Deno.test("resolveChoice() gives none only when asked, as deno-permissions, without a probe", () => {
  assert.deepEqual(resolveChoice("none", linux(null)), {
    ok: true,
    backend: "none",
    level: "deno-permissions",
  });
});

Deno.test("parseChoice() accepts auto, bwrap and none only", () => {
  assert.deepEqual(["auto", "bwrap", "none"].map(parseChoice), ["auto", "bwrap", "none"]);
  assert.equal(parseChoice("off"), null);
});
