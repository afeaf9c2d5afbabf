/**
 * Golden tests of the policy → Seatbelt transform: for each kind of step spot launches, the exact profile
 * (`tests/fixtures/seatbelt/<case>.sb`) and argv (`<case>.argv.json`, the profile left out). Any change to
 * what a Mac would run shows up here as a diff to review. After a deliberate change, rewrite them with
 * `SPOT_UPDATE_GOLDEN=1 deno test --allow-all sandbox/backends/seatbelt_golden_test.ts` and read the diff.
 */
import assert from "node:assert/strict";
import { DEFAULT_LIMITS, type SandboxPolicy } from "../sandbox_policy.ts";
import { seatbeltArgv } from "./seatbelt.ts";

const GOLDEN = new URL("../../tests/fixtures/seatbelt/", import.meta.url);
const UPDATE = Deno.env.get("SPOT_UPDATE_GOLDEN") === "1";

const USER = "/Users/me";
const RUN = `${USER}/Library/Application Support/pi-worker/runs/fix-42`;
const WT = `${USER}/Library/Caches/pi-worker/worktrees/fix-42`;
const HOME = `${RUN}/homes/worker-a1`;
const DENO = "/opt/homebrew/bin/deno";
const BRIDGE = `${USER}/src/spot/sandbox/bridge.ts`;
/** macOS: /tmp, /var and /etc are links into /private. */
const realpath = (p: string) => /^\/(tmp|var|etc)(\/|$)/.test(p) ? `/private${p}` : p;
const OPTIONS = { scratchRoot: `${RUN}/seatbelt`, inPlaceUnder: RUN, realpath };

const base: SandboxPolicy = {
  cwd: WT,
  readOnly: ["/usr", "/bin", "/etc/passwd", "/etc/ssl", "/opt/homebrew/bin/deno", `${USER}/.cache/deno`],
  symlinks: [{ path: "/etc/localtime", target: "/var/db/timezone/zoneinfo/Europe/Paris" }],
  writable: [WT],
  protected: [`${WT}/.git`, `${WT}/tests/add_test.ts`],
  binds: [],
  scratch: [{ path: "/tmp", sizeBytes: 1024 ** 3 }, { path: "/home/spot-check", sizeBytes: 512 * 1024 ** 2 }],
  env: { HOME: "/home/spot-check", TMPDIR: "/tmp", PATH: "/opt/homebrew/bin:/usr/bin:/bin", LANG: "C.UTF-8" },
  network: { mode: "none" },
  limits: { ...DEFAULT_LIMITS, prlimit: null },
  shell: "/bin/sh",
};

const CASES: Record<string, { policy: SandboxPolicy; argv: string[] }> = {
  // A verification command: no network, a HOME of its own, the locked test read-only.
  "check": { policy: base, argv: ["/opt/homebrew/bin/deno", "test", "add_test.ts"] },
  // A worker turn behind the provider forwarder, its prepared config files read-only in its HOME.
  "worker-forwarder": {
    policy: {
      ...base,
      readOnly: [
        ...base.readOnly,
        "/opt/homebrew/lib/node_modules/@mariozechner/pi",
        `${HOME}/.pi/agent/models.json`,
      ],
      writable: [WT, `${RUN}/sessions`],
      scratch: [{ path: "/tmp", sizeBytes: 1024 ** 3 }, { path: HOME, sizeBytes: 512 * 1024 ** 2 }],
      env: { ...base.env, HOME, OPENAI_API_KEY: "spot-placeholder-0000", DENO_DIR: `${USER}/.cache/deno` },
      network: {
        mode: "forwarder",
        hostSocket: `${RUN}/fwd/provider.sock`,
        deno: DENO,
        bridgeScript: BRIDGE,
      },
    },
    argv: ["/opt/homebrew/bin/pi", "--mode", "json", "-p", "@/dev/stdin"],
  },
  // The self-review turn: the worktree only read.
  "self-review": {
    policy: {
      ...base,
      readOnly: [...base.readOnly, WT],
      writable: [],
      protected: [],
      scratch: [{ path: "/tmp", sizeBytes: 1024 ** 3 }, { path: HOME, sizeBytes: 512 * 1024 ** 2 }],
      env: { ...base.env, HOME },
    },
    argv: ["/opt/homebrew/bin/pi", "-p", "@/dev/stdin"],
  },
  // A research turn: the forwarder and, beside it, the web proxy for its allowed hosts.
  "research-web": {
    policy: {
      ...base,
      env: { ...base.env, HTTPS_PROXY: "http://127.0.0.1:18766", NO_PROXY: "127.0.0.1,localhost" },
      network: {
        mode: "forwarder",
        hostSocket: `${RUN}/fwd/provider.sock`,
        deno: DENO,
        bridgeScript: BRIDGE,
        web: { hosts: ["docs.deno.com:443"], proxySocket: `${RUN}/web/egress.sock` },
      },
    },
    argv: ["/opt/homebrew/bin/opencode", "run"],
  },
  // A dependency setup: the egress proxy only, its registry allowed.
  "setup-proxy": {
    policy: {
      ...base,
      env: { ...base.env, HTTPS_PROXY: "http://127.0.0.1:18766", npm_config_cache: "/tmp/npm-cache" },
      network: {
        mode: "proxy",
        hostSocket: `${RUN}/egress.sock`,
        deno: DENO,
        bridgeScript: BRIDGE,
        allow: ["registry.npmjs.org:443"],
      },
    },
    argv: ["/opt/homebrew/bin/npm", "ci"],
  },
};

for (const [name, c] of Object.entries(CASES)) {
  Deno.test(`seatbeltArgv() for a ${name} step is exactly its golden profile and argv`, async () => {
    const argv = seatbeltArgv("/usr/bin/sandbox-exec", c.policy, c.argv, OPTIONS);
    const profile = argv[2];
    const rest = JSON.stringify([...argv.slice(0, 2), `<profile: ${name}.sb>`, ...argv.slice(3)], null, 2) +
      "\n";
    const files = { sb: new URL(`${name}.sb`, GOLDEN), argv: new URL(`${name}.argv.json`, GOLDEN) };
    if (UPDATE) {
      await Deno.mkdir(GOLDEN, { recursive: true });
      await Deno.writeTextFile(files.sb, profile);
      await Deno.writeTextFile(files.argv, rest);
    }
    assert.equal(profile, await Deno.readTextFile(files.sb), `${name}.sb`);
    assert.equal(rest, await Deno.readTextFile(files.argv), `${name}.argv.json`);
  });
}
