/**
 * macOS: a sandbox policy as a Seatbelt profile for `sandbox-exec -p`, and the argv that runs a command
 * under it. Pure (the host's real paths come in through `realpath`) and golden-tested on Linux; spot uses
 * it only where the first-use self-test passed on that Mac (sandbox/backends/seatbelt_selftest.ts).
 *
 * Seatbelt has no namespaces, so what bwrap does with mounts is done here with real paths:
 * - a scratch dir (/tmp, a check's HOME) is a real directory under `scratchRoot`, emptied and made at each
 *   launch, and every environment value naming it is rewritten; one already private to the run (the
 *   worker's HOME under the run dir) is used in place;
 * - a read-only path inside a writable root (a locked file, the `.git` file, the worker's config files) is
 *   kept out of the write rule with `require-not`;
 * - a channel (the provider forwarder, the egress proxy) is the same bridge as under bwrap, run inside the
 *   sandbox on the host's loopback port, allowed to reach the channel's unix socket and nothing else;
 * - a dependency dir shown at another path cannot be done at all: such a policy is refused.
 * Seatbelt matches the real path of a file (`/tmp` is `/private/tmp`), so each path is granted both as
 * written and as it really is.
 */
import { dirname, isAbsolute, join } from "../../base/path.ts";
import { SpotError } from "../../errors.ts";
import { within } from "../host_paths.ts";
import { channelsOf, insideEndpoint, type SandboxPolicy } from "../sandbox_policy.ts";

/** Read-only system locations a macOS program needs to start. */
export const MACOS_SYSTEM_READ = [
  "/usr",
  "/bin",
  "/sbin",
  "/System",
  "/Library/Apple",
  "/private/etc/ssl",
  "/private/etc/passwd",
  "/private/etc/group",
  "/private/etc/hosts",
  "/private/var/db/timezone",
  "/dev/null",
  "/dev/urandom",
  "/dev/random",
  "/dev/zero",
];

/** Devices a command may write: the bit bucket and its own open descriptors. */
const MACOS_DEVICE_WRITE = ["/dev/null", "/dev/zero", "/dev/stdout", "/dev/stderr", "/dev/dtracehelper"];

/** The mach services a CLI needs for name lookup of users and for TLS trust; nothing that opens apps. */
export const MACOS_MACH_SERVICES = [
  "com.apple.system.opendirectoryd.libinfo",
  "com.apple.trustd.agent",
  "com.apple.system.notification_center",
  "com.apple.logd",
];

/** The `env` that starts the command with exactly the policy's environment. */
export const MACOS_ENV = "/usr/bin/env";
/** How long the wrapper waits for a bridge, in 50 ms ticks (10 s), as under bwrap. */
const BRIDGE_WAIT_TICKS = 200;

export interface SeatbeltOptions {
  /** Where scratch dirs are made that are not already private to the run (the run dir's `seatbelt/`). */
  scratchRoot: string;
  /** Scratch paths under this dir are real dirs spot made for this run, used in place. */
  inPlaceUnder: string;
  /** The real path of an existing path (macOS: `/tmp/x` is `/private/tmp/x`); null where it does not exist. */
  realpath?: (path: string) => string | null;
}

/** A string literal in SBPL: backslash and quote escaped, control characters refused. */
export function sbplString(value: string): string {
  // deno-lint-ignore no-control-regex
  if (/[\x00-\x1f]/.test(value)) throw new TypeError(`Cannot put "${value}" in a Seatbelt profile`);
  return `"${value.replace(/\\/g, "\\\\").replace(/"/g, '\\"')}"`;
}

function shellQuote(value: string): string {
  return `'${value.replace(/'/g, `'\\''`)}'`;
}

/** A path as the kernel will see it: the real path of its deepest existing ancestor, plus the rest. */
function canonical(path: string, realpath: (path: string) => string | null): string {
  let head = path;
  const rest: string[] = [];
  while (head !== "/") {
    const real = realpath(head);
    if (real !== null) return rest.length === 0 ? real : join(real, ...rest.reverse());
    rest.push(head.slice(head.lastIndexOf("/") + 1));
    head = dirname(head);
  }
  return path;
}

/**
 * Where each scratch path really lives under Seatbelt, and a rewrite of any path or path list naming one.
 * A host path the policy shows (a worktree under /tmp) keeps its name, as it does when bwrap binds it over
 * the tmpfs: only what would have been the empty private dir moves.
 */
export function scratchMap(policy: SandboxPolicy, options: SeatbeltOptions) {
  const map = new Map<string, string>();
  for (const s of policy.scratch) {
    const slug = s.path.replace(/^\/+/, "").replace(/\//g, "_") || "root";
    map.set(s.path, within(s.path, options.inPlaceUnder) ? s.path : join(options.scratchRoot, slug));
  }
  const shown = [...policy.readOnly, ...policy.writable];
  // The longest scratch path first, so a HOME under /tmp maps to its own dir.
  const order = [...map.keys()].sort((a, b) => b.length - a.length);
  const path = (p: string) => {
    const s = order.find((k) => within(p, k));
    // A shown path at or below the scratch dir is bound over it under bwrap: it keeps its host name.
    if (s === undefined || shown.some((g) => within(p, g) && within(g, s))) return p;
    return map.get(s)! + p.slice(s.length);
  };
  const value = (v: string) => v.split(":").map((part) => isAbsolute(part) ? path(part) : part).join(":");
  return { map, path, value };
}

/** The full Seatbelt profile for a policy. */
export function seatbeltProfile(policy: SandboxPolicy, options: SeatbeltOptions): string {
  if (policy.binds.length > 0) {
    const b = policy.binds[0];
    throw new SpotError(
      "SANDBOX_UNAVAILABLE",
      `Cannot show "${b.from}" at "${b.to}" under Seatbelt: it has no mount namespace; to fix: run without the ` +
        "dependency setup, or pass --sandbox none",
    );
  }
  const real = options.realpath ?? ((p: string) => p);
  const scratch = scratchMap(policy, options);
  const both = (paths: string[]) => [...new Set(paths.flatMap((p) => [p, canonical(p, real)]))];
  const sub = (paths: string[]) => both(paths).map((p) => `(subpath ${sbplString(p)})`).join(" ");
  const lit = (paths: string[]) => both(paths).map((p) => `(literal ${sbplString(p)})`).join(" ");
  const scratchDirs = [...scratch.map.values()];
  const writableRoots = [...policy.writable, ...scratchDirs];
  const channels = channelsOf(policy.network);
  const links = policy.symlinks.flatMap((l) => [
    l.path,
    isAbsolute(l.target) ? l.target : join(dirname(l.path), l.target),
  ]);
  const bridge = policy.network.mode === "none" ? [] : [policy.network.deno, policy.network.bridgeScript];
  const readable = [
    ...MACOS_SYSTEM_READ,
    ...policy.readOnly,
    ...links,
    ...writableRoots,
    ...bridge,
    ...channels.map((c) => c.hostSocket),
  ];
  // A read-only path inside a writable root (a locked file, the worker's config files) stays read-only.
  const keep = [
    ...policy.protected,
    ...policy.readOnly.filter((p) => policy.writable.some((w) => within(p, w) && p !== w)),
    ...policy.readOnly.filter((p) => scratchDirs.some((s) => within(p, s) && p !== s)),
  ];
  const keepOut = both(keep).map((p) => ` (require-not (subpath ${sbplString(p)}))`).join("");
  const lines = [
    "(version 1)",
    "(deny default)",
    "(allow process-exec process-fork)",
    "(allow signal (target same-sandbox))",
    "(allow process-info* (target same-sandbox))",
    "(allow sysctl-read)",
    `(allow mach-lookup ${MACOS_MACH_SERVICES.map((s) => `(global-name ${sbplString(s)})`).join(" ")})`,
    "(allow file-read-metadata)",
    `(allow file-read* ${sub(readable)})`,
    ...(writableRoots.length > 0
      ? [`(allow file-write* (require-all (require-any ${sub(writableRoots)})${keepOut}))`]
      : []),
    `(allow file-read* file-write* ${lit(MACOS_DEVICE_WRITE)} (subpath "/dev/fd"))`,
    "(deny network*)",
  ];
  for (const c of channels) {
    const { port } = insideEndpoint(c.mode);
    lines.push(
      `(allow network-bind network-inbound (local ip "localhost:${port}"))`,
      `(allow network-outbound (remote ip "localhost:${port}"))`,
      ...both([c.hostSocket]).map((p) =>
        `(allow network-outbound (remote unix-socket (path-literal ${sbplString(p)})))`
      ),
    );
  }
  return lines.join("\n") + "\n";
}

/** The wrapper's lines that start one channel's bridge on the host loopback and wait for it. */
function bridgeLines(
  deno: string,
  bridgeScript: string,
  socket: string,
  port: number,
  readyDir: string,
): string[] {
  const ready = join(readyDir, `.spot-bridge-ready-${port}`);
  const flags = [
    `--allow-net=127.0.0.1:${port},unix:${socket}`,
    `--allow-read=${socket}`,
    `--allow-write=${socket},${ready}`,
  ]
    .map(shellQuote).join(" ");
  return [
    `rm -f ${shellQuote(ready)}`,
    `DENO_NO_UPDATE_CHECK=1 ${shellQuote(deno)} run --no-prompt --no-config --no-lock ${flags} ` +
    `${shellQuote(bridgeScript)} ${port} ${shellQuote(socket)} ${
      shellQuote(ready)
    } </dev/null >/dev/null 2>&1 &`,
    `n=0; while [ ! -e ${
      shellQuote(ready)
    } ] && [ $n -lt ${BRIDGE_WAIT_TICKS} ]; do sleep 0.05; n=$((n+1)); done`,
    `[ -e ${
      shellQuote(ready)
    } ] || { echo "spot: the bridge on port ${port} did not start (is the port in use?)" >&2; exit 125; }`,
  ];
}

/**
 * `sandbox-exec -p PROFILE /usr/bin/env -i ENV… sh -c WRAPPER spot-sandbox ARGV…`: the environment is exactly
 * the policy's (scratch paths rewritten), the scratch dirs are made fresh, the bridges started, then the command.
 */
export function seatbeltArgv(
  sandboxExec: string,
  policy: SandboxPolicy,
  argv: string[],
  options: SeatbeltOptions,
): string[] {
  if (argv.length === 0) throw new TypeError("Cannot sandbox an empty command");
  const profile = seatbeltProfile(policy, options);
  const scratch = scratchMap(policy, options);
  const fresh = [...scratch.map].filter(([from, to]) => from !== to).map(([, to]) => to);
  const readyDir = scratch.map.get("/tmp") ?? options.scratchRoot;
  const channels = policy.network.mode === "none" ? [] : channelsOf(policy.network);
  const deno = policy.network.mode === "none" ? "" : policy.network.deno;
  const bridgeScript = policy.network.mode === "none" ? "" : policy.network.bridgeScript;
  const script = [
    `ulimit -d ${Math.floor(policy.limits.dataBytes / 1024)}`,
    `ulimit -n ${policy.limits.openFiles}`,
    "ulimit -c 0",
    ...fresh.map((dir) => `rm -rf ${shellQuote(dir)} && mkdir -p -m 700 ${shellQuote(dir)} || exit 125`),
    ...channels.flatMap((c) =>
      bridgeLines(deno, bridgeScript, c.hostSocket, insideEndpoint(c.mode).port, readyDir)
    ),
    `cd ${shellQuote(scratch.path(policy.cwd))} || exit 125`,
    'exec "$@"',
  ].join("\n");
  const env = Object.keys(policy.env).sort().map((name) => `${name}=${scratch.value(policy.env[name])}`);
  return [
    sandboxExec,
    "-p",
    profile,
    MACOS_ENV,
    "-i",
    ...env,
    policy.shell,
    "-c",
    script,
    "spot-sandbox",
    ...argv,
  ];
}
