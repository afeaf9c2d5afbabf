/**
 * What an OS sandbox must enforce around one command, as data. Backends turn
 * it into an argv (bwrap.ts, seatbelt.ts) with pure functions; the host facts
 * it needs (which paths exist, where a binary really lives) are gathered by
 * host_paths.ts, and the command is started by spawn.ts like any other.
 */

import type { SandboxChoice } from "../schemas/sandbox_record.ts";
export type { BackendName, Enforcement, SandboxChoice } from "../schemas/sandbox_record.ts";

export const SANDBOX_CHOICES: readonly SandboxChoice[] = ["auto", "bwrap", "none"];

/** Where the forwarder's socket appears inside the sandbox. */
export const INSIDE_SOCKET = "/run/spot/provider.sock";
/** Where the bridge program appears inside the sandbox. */
export const INSIDE_BRIDGE = "/run/spot/bridge.ts";
/** The bridges' ready markers (one per port); they live on the sandbox's private /tmp. */
export const INSIDE_BRIDGE_READY = "/tmp/.spot-bridge-ready";
/** The TCP port the bridge listens on inside; each sandbox has its own loopback, so a constant is safe. */
export const BRIDGE_PORT = 18_765;
/** Where the egress proxy's socket appears inside, and the port its bridge listens on. */
export const INSIDE_EGRESS_SOCKET = "/run/spot/egress.sock";
export const EGRESS_PORT = 18_766;

/** The two channels out of a sandbox, each a unix socket on the host reached through a bridge inside. A sandbox
 * has one of them, or (a research turn behind the forwarder) both. */
export type ChannelMode = "forwarder" | "proxy";

/** Inside the sandbox: where a channel's socket is bound and which loopback port its bridge serves. */
export function insideEndpoint(mode: ChannelMode): { socket: string; port: number } {
  return mode === "forwarder"
    ? { socket: INSIDE_SOCKET, port: BRIDGE_PORT }
    : { socket: INSIDE_EGRESS_SOCKET, port: EGRESS_PORT };
}

export type NetworkPolicy =
  | { mode: "none" }
  | {
    /**
     * `forwarder`: only the provider forwarder (HTTP to the provider's API routes, the key swapped in);
     * `proxy`: an egress proxy that lets out only `allow`ed `host:port`s (package registries for setup).
     */
    mode: ChannelMode;
    /** The channel's unix socket on the host. */
    hostSocket: string;
    /** Absolute path of the deno binary that runs the bridge inside. */
    deno: string;
    /** Host path of the bridge program (bound read-only at INSIDE_BRIDGE). */
    bridgeScript: string;
    /** For `proxy`: the allowlist the proxy enforces, recorded with the run. */
    allow?: string[];
    /**
     * A research turn's web tools: the hosts they may reach. Under `proxy` they are part of `allow` (a CLI has
     * one HTTPS_PROXY); under `forwarder`, `proxySocket` is a second channel, an egress proxy allowing them.
     */
    web?: { hosts: string[]; proxySocket?: string };
  };

/** Every channel of a sandbox's network: the main one, then the web proxy beside a forwarder. */
export function channelsOf(network: NetworkPolicy): { mode: ChannelMode; hostSocket: string }[] {
  if (network.mode === "none") return [];
  const main = { mode: network.mode, hostSocket: network.hostSocket };
  const web = network.mode === "forwarder" ? network.web?.proxySocket : undefined;
  return web ? [main, { mode: "proxy", hostSocket: web }] : [main];
}

export interface ResourceLimits {
  /** RLIMIT_NPROC: tasks of the sandbox's uid (the kernel does not apply it to uid 0). */
  processes: number;
  /** RLIMIT_DATA: private writable memory of each process, in bytes. */
  dataBytes: number;
  /** RLIMIT_FSIZE: the largest file a process may write, in bytes. */
  fileBytes: number;
  /** RLIMIT_NOFILE: open descriptors per process. */
  openFiles: number;
  /** Absolute path of `prlimit` inside (util-linux), or null to fall back on `ulimit` in sh. */
  prlimit: string | null;
}

/** A private, empty, size-capped directory (tmpfs). */
export interface Scratch {
  path: string;
  sizeBytes: number;
}

export interface SandboxPolicy {
  /** Working directory inside; it must be visible (usually the writable worktree). */
  cwd: string;
  /** Host paths visible read-only at the same place: system dirs, toolchains, the worker's install dir. */
  readOnly: string[];
  /** Host symlinks recreated inside, like `/bin -> usr/bin` on merged-/usr systems. */
  symlinks: { path: string; target: string }[];
  /** Host paths visible and writable at the same place (the worktree). */
  writable: string[];
  /**
   * Paths under a writable root that stay read-only (the `.git` file, locked
   * files). Every directory between the root and the path is pinned as a
   * mount point, so renaming an ancestor fails instead of getting around it.
   */
  protected: string[];
  /**
   * Host directories shown read-only at another path (a dependency dir the source checkout or a setup
   * produced, mounted into the worktree). Needs mount namespaces: only bwrap can do it.
   */
  binds: { from: string; to: string }[];
  /** Private tmpfs directories (/tmp, HOME), each with a size cap. */
  scratch: Scratch[];
  /** The complete environment inside; nothing else passes. */
  env: Record<string, string>;
  network: NetworkPolicy;
  limits: ResourceLimits;
  /** Absolute path of a POSIX shell inside, for the small wrapper that starts the bridge. */
  shell: string;
}

/** A GiB, for readable constants. */
const GIB = 1024 ** 3;
const MIB = 1024 ** 2;

/** Caps that fit a worker CLI plus a test runner; each is per process except the tmpfs sizes. */
export const DEFAULT_LIMITS: Omit<ResourceLimits, "prlimit"> = {
  // A test runner with workers and a language server stays well under this; a fork bomb does not.
  processes: 1024,
  // V8 (deno, node) needs about 1 GiB of data segment to start; 4 GiB leaves room for real test suites.
  dataBytes: 4 * GIB,
  // Larger than any source file or build artifact a task should produce.
  fileBytes: 2 * GIB,
  // Node and Deno test runners open many files at once; 4096 is the common hard default.
  openFiles: 4096,
};

/** Room for test runners' temp files; a disk-fill attack stops here. */
export const TMP_SIZE_BYTES = 1 * GIB;
/** A worker's HOME holds its config and caches only. */
export const HOME_SIZE_BYTES = 512 * MIB;
/** POSIX shared memory for runtimes that use it; /dev is otherwise read-only, so this is its only room. */
export const SHM_SIZE_BYTES = 64 * MIB;
