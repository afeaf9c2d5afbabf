import assert from "node:assert/strict";
import { bwrapBackend } from "../sandbox/backends/backend.ts";
import type { HostFacts } from "./host_facts.ts";
import { buildStepPolicy, type StepRequest } from "./step_policy.ts";

const HOST: HostFacts = {
  home: "/home/u",
  system: { readOnly: ["/usr", "/etc/passwd"], symlinks: [{ path: "/bin", target: "usr/bin" }] },
  pathDirs: ["/usr/bin", "/opt/tools/bin", "/home/u"],
  denoDir: "/opt/deno-cache",
  deno: "/opt/deno/bin/deno",
  baseTools: [{ bin: "/opt/deno/bin/deno", real: "/opt/deno/bin/deno", roots: ["/opt/deno"], links: [] }],
  spotRoot: "/opt/spot",
  keepOut: ["/home/u", "/state", "/cache", "/repo"],
  prlimit: "/usr/bin/prlimit",
  shell: "/usr/bin/sh",
  mounts: true,
  bridgeScript: "/opt/spot/sandbox/bridge.ts",
};
const CWD = {
  dotGit: "/wt/.git",
  gitView: {
    binds: [
      { from: "/state/runs/r/git-view/check", to: "/repo/.git" },
      { from: "/repo/.git/objects", to: "/repo/.git/objects" },
      { from: "/repo/.git/worktrees/wt", to: "/repo/.git/worktrees/wt" },
    ],
    grants: {
      readOnly: [
        "/state/runs/r/git-view/check",
        "/repo/.git/objects",
        "/repo/.git/worktrees/wt",
        "/repo/.git/refs",
      ],
      env: { GIT_COMMON_DIR: "/state/runs/r/git-view/check", GIT_OBJECT_DIRECTORY: "/repo/.git/objects" },
    },
  },
  locked: ["/wt/test.ts"],
};

function check(overrides: Partial<StepRequest> = {}): StepRequest {
  return {
    kind: "check",
    cwd: "/wt",
    tools: [{ bin: "/usr/bin/node", real: "/usr/bin/node", roots: ["/usr/bin"], links: [] }],
    home: { path: "/home/spot-check" },
    env: { PATH: "/usr/bin", HOME: "/home/u" },
    network: { mode: "none" },
    ...overrides,
  };
}

Deno.test("buildStepPolicy() gives a check its checkout writable, .git and locked files read-only, private /tmp and HOME", () => {
  const policy = buildStepPolicy(check(), HOST, CWD);
  assert.deepEqual(policy.writable, ["/wt"]);
  assert.deepEqual(policy.protected, ["/wt/.git", "/wt/test.ts"]);
  assert.deepEqual(policy.scratch.map((s) => s.path), ["/tmp", "/home/spot-check"]);
  assert.equal(policy.env.HOME, "/home/spot-check", "the user's HOME never reaches the check");
  assert.equal(policy.env.TMPDIR, "/tmp");
  assert.equal(policy.env.DENO_DIR, "/opt/deno-cache");
  assert.deepEqual(policy.network, { mode: "none" });
  assert.equal(policy.limits.prlimit, "/usr/bin/prlimit");
  assert.equal(policy.shell, "/usr/bin/sh");
});

Deno.test("buildStepPolicy() shows spot's view of the git dir, never the checkout, HOME or spot's state", () => {
  const policy = buildStepPolicy(check(), HOST, CWD);
  for (const dir of ["/usr", "/opt/tools/bin", "/opt/deno"]) {
    assert.ok(policy.readOnly.includes(dir), dir);
  }
  assert.deepEqual(policy.binds, CWD.gitView.binds, "the view, its objects and the worktree's own git dir");
  for (const dir of ["/repo/.git", "/repo/.git/worktrees/wt"]) {
    assert.ok(!policy.readOnly.includes(dir), `${dir} is never shown whole`);
  }
  assert.equal(policy.env.GIT_COMMON_DIR, undefined, "mounted, git needs no pointer");
  // A backend without mounts (Seatbelt) grants the view's paths and points git at them instead.
  const granted = buildStepPolicy(check(), { ...HOST, mounts: false }, CWD);
  assert.deepEqual(granted.binds, []);
  for (const path of CWD.gitView.grants.readOnly) assert.ok(granted.readOnly.includes(path), path);
  assert.ok(!granted.readOnly.includes("/repo/.git"), "never the common dir whole");
  assert.equal(granted.env.GIT_COMMON_DIR, "/state/runs/r/git-view/check");
  for (const hidden of ["/home/u", "/repo", "/state", "/cache", "/"]) {
    assert.ok(!policy.readOnly.includes(hidden), hidden);
  }
});

Deno.test("buildStepPolicy() shows spot's own checkout to worker turns only", () => {
  assert.ok(!buildStepPolicy(check(), HOST, CWD).readOnly.includes("/opt/spot"));
  for (const kind of ["worker", "self-review"] as const) {
    const policy = buildStepPolicy(
      check({ kind, home: { path: "/run/h", files: ["/run/h/cfg"] } }),
      HOST,
      CWD,
    );
    assert.ok(policy.readOnly.includes("/opt/spot"), kind);
    assert.ok(policy.readOnly.includes("/run/h/cfg"), "files written into the private HOME stay visible");
  }
});

Deno.test("buildStepPolicy() covers spot's own .git dir with an empty tmpfs wherever its checkout is shown", () => {
  const host = { ...HOST, spotGitDir: "/opt/spot/.git" };
  const worker = buildStepPolicy(check({ kind: "worker" }), host, CWD);
  assert.ok(
    worker.scratch.some((s) => s.path === "/opt/spot/.git"),
    "the worker never reads spot's git config",
  );
  assert.ok(!buildStepPolicy(check(), host, CWD).scratch.some((s) => s.path === "/opt/spot/.git"));
  const hidden = buildStepPolicy(check({ kind: "worker" }), { ...host, keepOut: ["/opt/spot/x"] }, CWD);
  assert.ok(
    !hidden.scratch.some((s) => s.path === "/opt/spot/.git"),
    "nothing where the checkout is not shown",
  );
});

Deno.test("buildStepPolicy() drops command-line paths that would show too much, and keeps the rest", () => {
  const policy = buildStepPolicy(
    check({ kind: "worker", readOnly: ["/data/episode.jsonl", "/home", "/wt/inside"], writable: ["/run/s"] }),
    HOST,
    CWD,
  );
  assert.ok(policy.readOnly.includes("/data/episode.jsonl"));
  assert.ok(!policy.readOnly.includes("/home"), "a top-level dir is never shown whole");
  assert.ok(!policy.readOnly.includes("/wt/inside"), "already writable");
  assert.deepEqual(policy.writable, ["/wt", "/run/s"]);
});

Deno.test("the enforcement recorded for a run comes from the policy that ran", () => {
  const backend = bwrapBackend("/usr/bin/bwrap");
  const none = backend.enforcement(buildStepPolicy(check(), HOST, CWD), { uid: 1000 });
  assert.ok(none.enforced.includes("net:none"));
  assert.ok(none.enforced.includes("tmpfs:/home/spot-check=512MiB"));
  const forwarded = buildStepPolicy(
    check({
      kind: "worker",
      network: {
        mode: "forwarder",
        hostSocket: "/t/p.sock",
        deno: "/opt/deno/bin/deno",
        bridgeScript: "/b.ts",
      },
    }),
    HOST,
    CWD,
  );
  const viaForwarder = backend.enforcement(forwarded, { uid: 0 });
  assert.ok(viaForwarder.enforced.includes("net:provider-forwarder-only"));
  assert.ok(viaForwarder.notEnforced.some((n) => n.startsWith("nproc")), "root gets the honest nproc note");
  const noPrlimit = backend.enforcement(buildStepPolicy(check(), { ...HOST, prlimit: null }, CWD), {
    uid: 1000,
  });
  assert.ok(noPrlimit.notEnforced.some((n) => n.startsWith("nproc and fsize")));
});

Deno.test("buildStepPolicy() mounts the worktree read-only for a self-review turn, whatever the CLI's flags", () => {
  const policy = buildStepPolicy(check({ kind: "self-review", writable: ["/run/pi-session"] }), HOST, CWD);
  assert.deepEqual(policy.writable, ["/run/pi-session"]);
  assert.ok(policy.readOnly.includes("/wt"));
  assert.deepEqual(policy.protected, [], "nothing under a read-only worktree needs pinning");
  const worker = buildStepPolicy(check({ kind: "worker" }), HOST, CWD);
  assert.ok(worker.writable.includes("/wt") && !worker.readOnly.includes("/wt"));
});

Deno.test("buildStepPolicy() mounts the worktree read-only for a worker turn its caller made read-only", () => {
  const policy = buildStepPolicy(check({ kind: "worker", readOnlyCwd: true }), HOST, CWD);
  assert.ok(!policy.writable.includes("/wt"));
  assert.ok(policy.readOnly.includes("/wt"));
  assert.ok(policy.readOnly.includes("/opt/spot"), "still a worker turn: spot's checkout stays visible");
});

Deno.test("a research turn's web proxy: the proxy variables and NO_PROXY beside the forwarder, and what was granted", () => {
  const backend = bwrapBackend("/usr/bin/bwrap");
  const channel = { hostSocket: "/t/p.sock", deno: "/opt/deno/bin/deno", bridgeScript: "/b.ts" };
  const beside = buildStepPolicy(
    check({
      kind: "worker",
      network: {
        mode: "forwarder",
        ...channel,
        web: { hosts: ["docs.deno.com:443"], proxySocket: "/t/w.sock" },
      },
    }),
    HOST,
    CWD,
  );
  assert.equal(beside.env.HTTPS_PROXY, "http://127.0.0.1:18766");
  assert.equal(beside.env.http_proxy, "http://127.0.0.1:18766");
  assert.equal(beside.env.NO_PROXY, "127.0.0.1,localhost", "the provider's loopback base URL goes direct");
  const claims = backend.enforcement(beside, { uid: 1000 }).enforced;
  assert.ok(claims.includes("net:provider-forwarder") && !claims.includes("net:provider-forwarder-only"));
  assert.ok(claims.includes("net:web-allowlist=docs.deno.com:443"), claims.join(" "));
  // The same forwarder without the web: no proxy variables at all, and the claim stays "only".
  const plain = buildStepPolicy(
    check({ kind: "worker", network: { mode: "forwarder", ...channel } }),
    HOST,
    CWD,
  );
  assert.equal(plain.env.HTTPS_PROXY, undefined);
  assert.ok(backend.enforcement(plain, { uid: 1000 }).enforced.includes("net:provider-forwarder-only"));
  // One allowlist proxy: the web hosts are in its list, with no NO_PROXY (everything goes through it).
  const one = buildStepPolicy(
    check({
      kind: "worker",
      network: { mode: "proxy", ...channel, allow: ["m.io:443", "a.org:443"], web: { hosts: ["a.org:443"] } },
    }),
    HOST,
    CWD,
  );
  assert.equal(one.env.NO_PROXY, undefined);
  const oneClaims = backend.enforcement(one, { uid: 1000 }).enforced;
  assert.ok(oneClaims.includes("net:egress-allowlist=m.io:443,a.org:443"), oneClaims.join(" "));
  assert.ok(oneClaims.includes("net:web-allowlist=a.org:443"));
  const empty = buildStepPolicy(
    check({
      kind: "worker",
      network: { mode: "forwarder", ...channel, web: { hosts: [], proxySocket: "/t/w" } },
    }),
    HOST,
    CWD,
  );
  assert.ok(backend.enforcement(empty, { uid: 1000 }).enforced.includes("net:web-allowlist=none"));
});
