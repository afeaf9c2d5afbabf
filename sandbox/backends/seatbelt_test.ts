import assert from "node:assert/strict";
import { DEFAULT_LIMITS, type SandboxPolicy } from "../sandbox_policy.ts";
import { sbplString, seatbeltArgv, seatbeltProfile } from "./seatbelt.ts";

const WT = "/Users/me/Library/Caches/pi-worker/worktrees/run-1";

function policy(overrides: Partial<SandboxPolicy> = {}): SandboxPolicy {
  return {
    cwd: WT,
    readOnly: ["/opt/homebrew"],
    symlinks: [],
    writable: [WT],
    protected: [`${WT}/.git`, `${WT}/tests/locked_test.ts`],
    binds: [],
    scratch: [{ path: "/private/tmp/spot-run-1", sizeBytes: 1 }],
    env: {},
    network: { mode: "none" },
    limits: { ...DEFAULT_LIMITS, prlimit: null },
    shell: "/bin/sh",
    ...overrides,
  };
}

Deno.test("seatbeltProfile() denies by default and allows writes only under writable roots minus protected paths", () => {
  const profile = seatbeltProfile(policy());
  const lines = profile.split("\n");
  assert.equal(lines[0], "(version 1)");
  assert.equal(lines[1], "(deny default)");
  const write = lines.find((l) => l.startsWith("(allow file-write* (require-all"))!;
  assert.match(write, new RegExp(`\\(subpath "${WT}"\\)`));
  assert.match(write, /\(subpath "\/private\/tmp\/spot-run-1"\)/);
  assert.match(write, new RegExp(`\\(require-not \\(subpath "${WT}/\\.git"\\)\\)`));
  assert.match(write, /\(require-not \(subpath ".*\/tests\/locked_test\.ts"\)\)/);
  assert.ok(!/file-write\* \(subpath "\/opt\/homebrew"\)/.test(profile), "read-only paths are not writable");
  assert.match(profile, /\(allow file-read\* .*\(subpath "\/opt\/homebrew"\)/);
});

Deno.test("seatbeltProfile() signals and inspects only its own processes", () => {
  const profile = seatbeltProfile(policy());
  assert.match(profile, /\(allow signal \(target same-sandbox\)\)/);
  assert.match(profile, /\(allow process-info\* \(target same-sandbox\)\)/);
});

Deno.test("seatbeltProfile() denies the network unless a forwarder port is given, then allows only that port", () => {
  assert.match(seatbeltProfile(policy()), /\(deny network\*\)\n$/);
  const withForwarder = seatbeltProfile(
    policy({ network: { mode: "forwarder", hostSocket: "/s", deno: "/d", bridgeScript: "/b" } }),
    18765,
  );
  assert.match(withForwarder, /\(allow network-outbound \(remote ip "localhost:18765"\)\)/);
  assert.equal(withForwarder.match(/allow network/g)?.length, 1);
});

Deno.test("sbplString() escapes quotes and backslashes and refuses control characters", () => {
  assert.equal(sbplString('/a "b"\\c'), '"/a \\"b\\"\\\\c"');
  assert.throws(() => sbplString("/a\nb"), /Seatbelt/);
});

Deno.test("seatbeltArgv() passes the profile with -p and runs the command through sh with limits and cd", () => {
  const argv = seatbeltArgv("/usr/bin/sandbox-exec", policy(), ["/opt/homebrew/bin/pi", "-p"]);
  assert.deepEqual(argv.slice(0, 2), ["/usr/bin/sandbox-exec", "-p"]);
  assert.match(argv[2], /^\(version 1\)/);
  assert.equal(argv[3], "/bin/sh");
  assert.match(argv[5], /ulimit -d \d+; ulimit -n 4096; ulimit -c 0; cd '.*run-1'; exec "\$@"/);
  assert.deepEqual(argv.slice(-3), ["spot-sandbox", "/opt/homebrew/bin/pi", "-p"]);
});
