import assert from "node:assert/strict";
import { parseChoice, resolveChoice } from "./choose.ts";
import type { BwrapProbe } from "./probe.ts";

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
  assert.deepEqual(resolveChoice("auto", "linux", WORKS), { ok: true, backend: "bwrap", level: "os" });
  assert.deepEqual(resolveChoice("bwrap", "linux", WORKS), { ok: true, backend: "bwrap", level: "os" });
});

Deno.test("resolveChoice() refuses auto without bwrap and names the install and --sandbox none", () => {
  const r = resolveChoice("auto", "linux", MISSING);
  assert.equal(r.ok, false);
  if (r.ok) return;
  assert.match(r.fix, /apt-get install bubblewrap/);
  assert.match(r.fix, /--sandbox none/);
});

Deno.test("resolveChoice() refuses a bwrap that cannot make namespaces and says how to allow them", () => {
  const r = resolveChoice("bwrap", "linux", BLOCKED);
  assert.equal(r.ok, false);
  if (r.ok) return;
  assert.match(r.reason, /uid map/);
  assert.match(r.fix, /user namespaces/);
});

Deno.test("resolveChoice() never falls back: auto on macOS refuses rather than running unsandboxed", () => {
  const r = resolveChoice("auto", "darwin", null);
  assert.equal(r.ok, false);
  if (!r.ok) assert.match(r.reason, /Seatbelt/);
  assert.equal(resolveChoice("bwrap", "darwin", null).ok, false);
});

Deno.test("resolveChoice() gives none only when asked, as deno-permissions, without a probe", () => {
  assert.deepEqual(resolveChoice("none", "linux", null), {
    ok: true,
    backend: "none",
    level: "deno-permissions",
  });
});

Deno.test("parseChoice() accepts auto, bwrap and none only", () => {
  assert.deepEqual(["auto", "bwrap", "none"].map(parseChoice), ["auto", "bwrap", "none"]);
  assert.equal(parseChoice("off"), null);
});
