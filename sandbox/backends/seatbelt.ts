/**
 * macOS: the same policy as a Seatbelt profile for `sandbox-exec -p`. Pure
 * and unit-tested here; it cannot run on Linux, so spot never selects it on
 * its own (see docs/sandbox.md for what it would and would not give).
 *
 * Differences from bwrap that the profile cannot hide: there is no mount
 * namespace (paths keep their host names, and "scratch" dirs must be real
 * directories spot creates and deletes), no PID namespace (teardown is the
 * process-group kill), and no network namespace (the forwarder listens on a
 * loopback port, which is the only outbound address allowed).
 */
import type { SandboxPolicy } from "../sandbox_policy.ts";

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
  "/private/var/db/timezone",
  "/dev/null",
  "/dev/urandom",
  "/dev/random",
  "/dev/zero",
];

/** The mach services a CLI needs for name lookup of users and for TLS trust; nothing that opens apps. */
export const MACOS_MACH_SERVICES = [
  "com.apple.system.opendirectoryd.libinfo",
  "com.apple.trustd.agent",
  "com.apple.system.notification_center",
  "com.apple.logd",
];

/** A string literal in SBPL: backslash and quote escaped, control characters refused. */
export function sbplString(value: string): string {
  // deno-lint-ignore no-control-regex
  if (/[\x00-\x1f]/.test(value)) throw new TypeError(`Cannot put "${value}" in a Seatbelt profile`);
  return `"${value.replace(/\\/g, "\\\\").replace(/"/g, '\\"')}"`;
}

function subpaths(paths: string[]): string {
  return paths.map((p) => `(subpath ${sbplString(p)})`).join(" ");
}

/** The Seatbelt profile for a policy; `forwarderPort` is the loopback port the forwarder listens on. */
export function seatbeltProfile(policy: SandboxPolicy, forwarderPort?: number): string {
  const readable = [
    ...MACOS_SYSTEM_READ,
    ...policy.readOnly,
    ...policy.symlinks.map((l) => l.path),
    ...policy.writable,
    ...policy.scratch.map((s) => s.path),
  ];
  const writableRoots = [...policy.writable, ...policy.scratch.map((s) => s.path)];
  // Inside the writable roots, protected paths stay read-only: require-not keeps the rule order-free.
  const keepReadOnly = policy.protected.map((p) => `(require-not (subpath ${sbplString(p)}))`).join(" ");
  const lines = [
    "(version 1)",
    "(deny default)",
    "(allow process-exec process-fork)",
    "(allow signal (target same-sandbox))",
    "(allow process-info* (target same-sandbox))",
    "(allow sysctl-read)",
    `(allow mach-lookup ${MACOS_MACH_SERVICES.map((s) => `(global-name ${sbplString(s)})`).join(" ")})`,
    "(allow file-read-metadata)",
    `(allow file-read* ${subpaths(readable)})`,
    `(allow file-write* (require-all (require-any ${subpaths(writableRoots)}) ${keepReadOnly}))`,
    '(allow file-write* (literal "/dev/null"))',
    "(deny network*)",
  ];
  if (policy.network.mode === "forwarder" && forwarderPort !== undefined) {
    lines.push(`(allow network-outbound (remote ip "localhost:${forwarderPort}"))`);
  }
  return lines.join("\n") + "\n";
}

/** `sandbox-exec -p PROFILE -- argv`, with the environment handled by the spawn (cleared, explicit). */
export function seatbeltArgv(
  sandboxExec: string,
  policy: SandboxPolicy,
  argv: string[],
  forwarderPort?: number,
): string[] {
  if (argv.length === 0) throw new TypeError("Cannot sandbox an empty command");
  if (policy.binds.length > 0) {
    throw new TypeError("Cannot show a directory at another path under Seatbelt: it has no mount namespace");
  }
  const ulimits = [
    `ulimit -d ${Math.floor(policy.limits.dataBytes / 1024)}`,
    `ulimit -n ${policy.limits.openFiles}`,
    "ulimit -c 0",
    `cd ${shellQuote(policy.cwd)}`,
    'exec "$@"',
  ].join("; ");
  return [
    sandboxExec,
    "-p",
    seatbeltProfile(policy, forwarderPort),
    policy.shell,
    "-c",
    ulimits,
    "spot-sandbox",
    ...argv,
  ];
}

function shellQuote(value: string): string {
  return `'${value.replace(/'/g, `'\\''`)}'`;
}
