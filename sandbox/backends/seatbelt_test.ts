import assert from "node:assert/strict";
import { isSpotError } from "../../errors.ts";
import { DEFAULT_LIMITS, type SandboxPolicy } from "../sandbox_policy.ts";
import { sbplString, scratchMap, seatbeltArgv, seatbeltProfile } from "./seatbelt.ts";

const RUN = "/Users/me/Library/Caches/pi-worker/runs/run-1";
const WT = "/Users/me/Library/Caches/pi-worker/worktrees/run-1";
const HOME = `${RUN}/homes/worker-a1`;
const OPTIONS = { scratchRoot: `${RUN}/seatbelt`, inPlaceUnder: RUN };

function policy(overrides: Partial<SandboxPolicy> = {}): SandboxPolicy {
  return {
    cwd: WT,
    readOnly: ["/opt/homebrew", `${HOME}/.pi/settings.json`],
    symlinks: [],
    writable: [WT],
    protected: [`${WT}/.git`, `${WT}/tests/locked_test.ts`],
    binds: [],
    scratch: [{ path: "/tmp", sizeBytes: 1 }, { path: HOME, sizeBytes: 1 }],
    env: { HOME, TMPDIR: "/tmp", PATH: "/usr/bin:/bin" },
    network: { mode: "none" },
    limits: { ...DEFAULT_LIMITS, prlimit: null },
    shell: "/bin/sh",
    ...overrides,
  };
}
const line = (profile: string, start: string) => profile.split("\n").find((l) => l.startsWith(start)) ?? "";

Deno.test("seatbeltProfile() denies by default and allows writes only under writable roots minus what stays read-only", () => {
  const profile = seatbeltProfile(policy(), OPTIONS);
  assert.deepEqual(profile.split("\n").slice(0, 2), ["(version 1)", "(deny default)"]);
  const write = line(profile, "(allow file-write* (require-all");
  assert.match(write, new RegExp(`\\(require-any \\(subpath "${WT}"\\)`));
  assert.match(write, new RegExp(`\\(subpath "${RUN}/seatbelt/tmp"\\)`), "/tmp is a dir of the run's");
  assert.match(write, new RegExp(`\\(subpath "${HOME}"\\)`), "the worker's HOME is used in place");
  for (const kept of [`${WT}/.git`, `${WT}/tests/locked_test.ts`, `${HOME}/.pi/settings.json`]) {
    assert.ok(write.includes(`(require-not (subpath "${kept}"))`), kept);
  }
  assert.ok(!write.includes("/opt/homebrew"), "read-only paths are not writable");
  assert.ok(!/subpath "\/tmp"/.test(write), "the host's /tmp is never writable");
  assert.match(line(profile, "(allow file-read* (subpath"), /\(subpath "\/opt\/homebrew"\)/);
});

Deno.test("seatbeltProfile() grants each path as written and as the kernel sees it", () => {
  const realpath = (p: string) => p.startsWith("/tmp") ? `/private${p}` : p;
  const profile = seatbeltProfile(policy({ writable: ["/tmp/wt"], cwd: "/tmp/wt", protected: [] }), {
    ...OPTIONS,
    realpath,
  });
  const write = line(profile, "(allow file-write* (require-all");
  assert.match(write, /\(subpath "\/tmp\/wt"\) \(subpath "\/private\/tmp\/wt"\)/);
});

Deno.test("seatbeltProfile() signals only its own processes and opens only the channels' ports and sockets", () => {
  const closed = seatbeltProfile(policy(), OPTIONS);
  assert.match(closed, /\(allow signal \(target same-sandbox\)\)/);
  assert.match(closed, /\(deny network\*\)\n$/);
  const open = seatbeltProfile(
    policy({
      network: {
        mode: "forwarder",
        hostSocket: `${RUN}/fwd/provider.sock`,
        deno: "/opt/homebrew/bin/deno",
        bridgeScript: "/Users/me/src/spot/sandbox/bridge.ts",
        web: { hosts: ["docs.deno.com:443"], proxySocket: `${RUN}/web.sock` },
      },
    }),
    OPTIONS,
  );
  const net = open.split("\n").filter((l) => l.includes("network"));
  assert.deepEqual(net, [
    "(deny network*)",
    '(allow network-bind network-inbound (local ip "localhost:18765"))',
    '(allow network-outbound (remote ip "localhost:18765"))',
    `(allow network-outbound (remote unix-socket (path-literal "${RUN}/fwd/provider.sock")))`,
    '(allow network-bind network-inbound (local ip "localhost:18766"))',
    '(allow network-outbound (remote ip "localhost:18766"))',
    `(allow network-outbound (remote unix-socket (path-literal "${RUN}/web.sock")))`,
  ]);
  assert.match(line(open, "(allow file-read* (subpath"), /"\/Users\/me\/src\/spot\/sandbox\/bridge\.ts"/);
});

Deno.test("seatbeltProfile() refuses a dependency dir shown at another path: Seatbelt has no mounts", () => {
  assert.throws(
    () =>
      seatbeltProfile(policy({ binds: [{ from: "/src/node_modules", to: `${WT}/node_modules` }] }), OPTIONS),
    (e) => isSpotError(e, "SANDBOX_UNAVAILABLE") && /no mount namespace/.test(e.message),
  );
});

Deno.test("sbplString() escapes quotes and backslashes and refuses control characters", () => {
  assert.equal(sbplString('/a "b"\\c'), '"/a \\"b\\"\\\\c"');
  assert.throws(() => sbplString("/a\nb"), /Seatbelt/);
});

Deno.test("scratchMap() moves a scratch dir that is not the run's own under scratchRoot and rewrites values naming it", () => {
  const check = policy({
    scratch: [{ path: "/tmp", sizeBytes: 1 }, { path: "/home/spot-check", sizeBytes: 1 }],
  });
  const map = scratchMap(check, OPTIONS);
  assert.equal(map.path("/home/spot-check/.cache"), `${RUN}/seatbelt/home_spot-check/.cache`);
  assert.equal(map.value("/tmp/a:/usr/bin:relative"), `${RUN}/seatbelt/tmp/a:/usr/bin:relative`);
  assert.equal(map.value("http://127.0.0.1:18765/v1"), "http://127.0.0.1:18765/v1");
  assert.equal(map.path("/tmpfoo"), "/tmpfoo");
  // A worktree under /tmp is the host's, as when bwrap binds it over its tmpfs; the rest of /tmp is not.
  const inTmp = scratchMap(policy({ cwd: "/tmp/t/wt", writable: ["/tmp/t/wt"] }), OPTIONS);
  assert.equal(inTmp.path("/tmp/t/wt/src"), "/tmp/t/wt/src");
  assert.equal(inTmp.path("/tmp/t/other"), `${RUN}/seatbelt/tmp/t/other`);
});

Deno.test("seatbeltArgv() gives env -i exactly the policy's environment, makes the scratch dirs fresh, then runs the command", () => {
  const argv = seatbeltArgv("/usr/bin/sandbox-exec", policy(), ["/opt/homebrew/bin/pi", "-p"], OPTIONS);
  assert.deepEqual(argv.slice(0, 2), ["/usr/bin/sandbox-exec", "-p"]);
  assert.match(argv[2], /^\(version 1\)/);
  assert.deepEqual(argv.slice(3, 8), [
    "/usr/bin/env",
    "-i",
    `HOME=${HOME}`,
    "PATH=/usr/bin:/bin",
    `TMPDIR=${RUN}/seatbelt/tmp`,
  ]);
  assert.deepEqual(argv.slice(8, 10), ["/bin/sh", "-c"]);
  const script = argv[10].split("\n");
  assert.ok(
    script.includes(`rm -rf '${RUN}/seatbelt/tmp' && mkdir -p -m 700 '${RUN}/seatbelt/tmp' || exit 125`),
  );
  assert.ok(!script.some((l) => l.includes(`rm -rf '${HOME}'`)), "the worker's prepared HOME is kept");
  assert.deepEqual(script.slice(-2), [`cd '${WT}' || exit 125`, 'exec "$@"']);
  assert.deepEqual(argv.slice(-3), ["spot-sandbox", "/opt/homebrew/bin/pi", "-p"]);
});
