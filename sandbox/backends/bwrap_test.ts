import assert from "node:assert/strict";
import { BWRAP_CORE_FLAGS, bwrapArgv, innerArgv, mountPlan, pinsBetween } from "./bwrap.ts";
import {
  BRIDGE_PORT,
  DEFAULT_LIMITS,
  EGRESS_PORT,
  INSIDE_BRIDGE,
  INSIDE_EGRESS_SOCKET,
  INSIDE_SOCKET,
  type SandboxPolicy,
  SHM_SIZE_BYTES,
} from "../sandbox_policy.ts";

const BWRAP = "/usr/bin/bwrap";
const WT = "/tmp/spot/cache/worktrees/run-1";

function policy(overrides: Partial<SandboxPolicy> = {}): SandboxPolicy {
  return {
    cwd: WT,
    readOnly: ["/usr", "/etc/passwd"],
    symlinks: [{ path: "/bin", target: "usr/bin" }],
    writable: [WT],
    protected: [`${WT}/.git`],
    binds: [],
    scratch: [{ path: "/tmp", sizeBytes: 1024 }, { path: "/home/spot-check", sizeBytes: 512 }],
    env: { PATH: "/usr/bin", HOME: "/home/spot-check" },
    network: { mode: "none" },
    limits: { ...DEFAULT_LIMITS, prlimit: "/usr/bin/prlimit" },
    shell: "/bin/sh",
    ...overrides,
  };
}

/** The position of the first `flag path` pair that mounts `path`. */
function mountIndex(argv: string[], path: string): number {
  return argv.findIndex((a, i) => a === path && argv[i - 1]?.startsWith("--") && argv[i - 2] !== "--setenv");
}

Deno.test("bwrapArgv() starts with the namespace, privilege and lifetime flags and ends with the command", () => {
  const argv = bwrapArgv(BWRAP, policy(), ["/usr/bin/deno", "test"]);
  assert.deepEqual(argv.slice(0, 1 + BWRAP_CORE_FLAGS.length), [BWRAP, ...BWRAP_CORE_FLAGS]);
  for (
    const flag of [
      "--unshare-all",
      "--unshare-user",
      "--disable-userns",
      "--die-with-parent",
      "--new-session",
    ]
  ) {
    assert.ok(argv.includes(flag), flag);
  }
  assert.deepEqual(argv.slice(argv.indexOf("--cap-drop"), argv.indexOf("--cap-drop") + 2), [
    "--cap-drop",
    "ALL",
  ]);
  const tail = argv.slice(argv.indexOf("--"));
  assert.deepEqual(tail.slice(-2), ["/usr/bin/deno", "test"]);
  assert.equal(tail[1], "/usr/bin/prlimit");
});

Deno.test("bwrapArgv() clears the env and sets each name, sorted, after / is remounted read-only", () => {
  const argv = bwrapArgv(BWRAP, policy(), ["/bin/true"]);
  const clear = argv.indexOf("--clearenv");
  assert.ok(argv.indexOf("--remount-ro") < clear);
  assert.deepEqual(argv.slice(clear + 1, clear + 7), [
    "--setenv",
    "HOME",
    "/home/spot-check",
    "--setenv",
    "PATH",
    "/usr/bin",
  ]);
  assert.equal(argv.filter((a) => a === "--setenv").length, 2);
});

Deno.test("mountPlan() mounts /tmp before a worktree under it, and a HOME tmpfs before a file laid over it", () => {
  const home = "/tmp/spot/state/runs/run-1/homes/run-r0-a1";
  const file = `${home}/.pi/agent/settings.json`;
  const plan = mountPlan(policy({
    readOnly: ["/usr", file],
    scratch: [{ path: home, sizeBytes: 1 }, { path: "/tmp", sizeBytes: 2 }],
  }));
  const at = (p: string) => plan.findIndex((m) => m.path === p);
  assert.ok(at("/tmp") < at(WT));
  assert.ok(at("/tmp") < at(home));
  assert.ok(at(home) < at(file));
  assert.equal(plan[at(file)].kind, "ro");
});

Deno.test("a protected file is bound read-only after every directory up to the worktree is pinned", () => {
  const locked = `${WT}/tests/unit/locked_test.ts`;
  const argv = bwrapArgv(BWRAP, policy({ protected: [`${WT}/.git`, locked] }), ["/bin/true"]);
  const pinTests = argv.findIndex((a, i) => a === "--bind" && argv[i + 1] === `${WT}/tests`);
  const pinUnit = argv.findIndex((a, i) => a === "--bind" && argv[i + 1] === `${WT}/tests/unit`);
  const ro = argv.findIndex((a, i) => a === "--ro-bind" && argv[i + 1] === locked);
  const worktree = argv.findIndex((a, i) => a === "--bind" && argv[i + 1] === WT);
  assert.ok(worktree >= 0 && pinTests > worktree && pinUnit > pinTests && ro > pinUnit, argv.join(" "));
  assert.ok(argv.some((a, i) => a === "--ro-bind" && argv[i + 1] === `${WT}/.git`));
});

Deno.test("pinsBetween() lists the directories strictly between a root and a path, outermost first", () => {
  assert.deepEqual(pinsBetween("/w", "/w/a/b/c.ts"), ["/w/a", "/w/a/b"]);
  assert.deepEqual(pinsBetween("/w", "/w/c.ts"), []);
});

Deno.test("a protected path outside every writable root is refused instead of silently skipped", () => {
  assert.throws(
    () => bwrapArgv(BWRAP, policy({ protected: ["/etc/shadow"] }), ["/bin/true"]),
    /not inside a writable/,
  );
});

Deno.test("a relative, unnormalized or root path is refused", () => {
  for (const bad of ["relative/dir", "/tmp/../etc", "/tmp/x/", "/"]) {
    assert.throws(
      () => bwrapArgv(BWRAP, policy({ readOnly: [bad] }), ["/bin/true"]),
      /not absolute and normalized/,
    );
  }
});

Deno.test("a read-only path inside another is dropped, unless a scratch dir lies between them", () => {
  const plan = mountPlan(policy({
    readOnly: ["/usr", "/usr/bin", "/root/.cache/deno", "/tmp/fixtures/fake-pi"],
    scratch: [{ path: "/tmp", sizeBytes: 1 }],
  }));
  const paths = plan.map((m) => m.path);
  assert.ok(!paths.includes("/usr/bin"), "a bind of /usr/bin under /usr adds nothing");
  assert.ok(paths.includes("/root/.cache/deno"));
  assert.ok(paths.includes("/tmp/fixtures/fake-pi"), "the file under the /tmp tmpfs must be bound");
});

Deno.test("a writable path named also as read-only stays writable; a protected one stays read-only", () => {
  const plan = mountPlan(policy({ readOnly: ["/usr", WT], protected: [`${WT}/.git`] }));
  assert.equal(plan.find((m) => m.path === WT)?.kind, "rw");
  assert.equal(plan.find((m) => m.path === `${WT}/.git`)?.kind, "ro");
});

Deno.test("scratch dirs are private tmpfs mounts with their size caps; /dev is read-only but /dev/shm", () => {
  const argv = bwrapArgv(BWRAP, policy(), ["/bin/true"]);
  const shm = argv.indexOf("/dev/shm");
  assert.deepEqual(argv.slice(shm - 3, shm + 1), ["--size", String(SHM_SIZE_BYTES), "--tmpfs", "/dev/shm"]);
  assert.deepEqual(argv.slice(argv.indexOf("--remount-ro"), argv.indexOf("--remount-ro") + 4), [
    "--remount-ro",
    "/dev",
    "--remount-ro",
    "/",
  ]);
  const tmp = argv.indexOf("/tmp");
  assert.deepEqual(argv.slice(tmp - 5, tmp + 1), ["--perms", "0700", "--size", "1024", "--tmpfs", "/tmp"]);
  assert.ok(mountIndex(argv, "/tmp") < mountIndex(argv, WT));
});

Deno.test("the forwarder network binds its socket and the bridge, and the command waits for the bridge", () => {
  const argv = bwrapArgv(
    BWRAP,
    policy({
      network: {
        mode: "forwarder",
        hostSocket: "/tmp/spot-fwd-x/p.sock",
        deno: "/usr/bin/deno",
        bridgeScript: "/opt/spot/sandbox/bridge.ts",
      },
    }),
    ["/opt/pi/bin/pi", "-p"],
  );
  const sock = argv.indexOf("/tmp/spot-fwd-x/p.sock");
  assert.deepEqual(argv.slice(sock - 1, sock + 2), ["--ro-bind", "/tmp/spot-fwd-x/p.sock", INSIDE_SOCKET]);
  assert.ok(argv.includes(INSIDE_BRIDGE));
  const inner = argv.slice(argv.indexOf("--") + 1);
  const script = inner[inner.indexOf("-c") + 1];
  assert.match(script, new RegExp(`--allow-net=127\\.0\\.0\\.1:${BRIDGE_PORT},unix:${INSIDE_SOCKET}`));
  assert.match(script, /while \[ ! -e .* \]/);
  assert.match(script, /exec "\$@"$/);
  assert.deepEqual(inner.slice(-3), ["spot-sandbox", "/opt/pi/bin/pi", "-p"]);
});

Deno.test("without a network there is no shell wrapper: prlimit execs the command itself", () => {
  assert.deepEqual(innerArgv(policy(), ["/bin/true"]).slice(-3), ["--core=0", "--", "/bin/true"]);
});

Deno.test("without prlimit the limits fall back to ulimit lines that dash and bash both understand", () => {
  const inner = innerArgv(policy({ limits: { ...DEFAULT_LIMITS, prlimit: null } }), ["/bin/true"]);
  assert.equal(inner[0], "/bin/sh");
  assert.match(inner[2], /^ulimit -d \d+\nulimit -n 4096\nulimit -c 0\nexec "\$@"$/);
});

Deno.test("an empty command is refused", () => {
  assert.throws(() => bwrapArgv(BWRAP, policy(), []), /empty command/);
});

Deno.test("a bind shows a host directory read-only at another path, after the worktree it lands in", () => {
  const argv = bwrapArgv(
    BWRAP,
    policy({ binds: [{ from: "/src/repo/node_modules", to: `${WT}/node_modules` }] }),
    [
      "true",
    ],
  );
  const at = argv.indexOf(`${WT}/node_modules`);
  assert.deepEqual(argv.slice(at - 2, at + 1), ["--ro-bind", "/src/repo/node_modules", `${WT}/node_modules`]);
  assert.ok(mountIndex(argv, WT) < at, "the worktree is mounted first, the bind on top of it");
  assert.throws(
    () => bwrapArgv(BWRAP, policy({ binds: [{ from: "rel", to: `${WT}/x` }] }), ["true"]),
    TypeError,
  );
});

Deno.test("a research turn behind the forwarder has two channels: both sockets bound, two bridges, each awaited", () => {
  const network = {
    mode: "forwarder" as const,
    hostSocket: "/tmp/spot-fwd-x/p.sock",
    deno: "/usr/bin/deno",
    bridgeScript: "/opt/spot/sandbox/bridge.ts",
    web: { hosts: ["docs.deno.com:443"], proxySocket: "/tmp/spot-egress-y/s.sock" },
  };
  const argv = bwrapArgv(BWRAP, policy({ network }), ["/opt/qwen/bin/qwen"]);
  const bound = (host: string) => argv.slice(argv.indexOf(host) - 1, argv.indexOf(host) + 2);
  assert.deepEqual(bound("/tmp/spot-fwd-x/p.sock"), ["--ro-bind", "/tmp/spot-fwd-x/p.sock", INSIDE_SOCKET]);
  assert.deepEqual(bound("/tmp/spot-egress-y/s.sock"), [
    "--ro-bind",
    "/tmp/spot-egress-y/s.sock",
    INSIDE_EGRESS_SOCKET,
  ]);
  assert.equal(argv.filter((a) => a === INSIDE_BRIDGE).length, 1, "one bridge program serves both");
  const inner = argv.slice(argv.indexOf("--") + 1);
  const script = inner[inner.indexOf("-c") + 1];
  assert.match(script, new RegExp(`--allow-net=127\\.0\\.0\\.1:${BRIDGE_PORT},unix:${INSIDE_SOCKET}`));
  assert.match(script, new RegExp(`--allow-net=127\\.0\\.0\\.1:${EGRESS_PORT},unix:${INSIDE_EGRESS_SOCKET}`));
  // Each bridge has its own ready marker, so the second wait cannot pass on the first bridge's.
  assert.equal(new Set(script.match(/while \[ ! -e (\S+) \]/g)).size, 2, script);
  // Without the web's proxy socket, the forwarder is the one channel, as before.
  const one = bwrapArgv(BWRAP, policy({ network: { ...network, web: undefined } }), ["/bin/true"]);
  assert.ok(!one.includes(INSIDE_EGRESS_SOCKET));
});
