/**
 * The macOS backend, apart from the others: it and its profile writer load only where a run uses Seatbelt
 * (isolation/run_sandbox.ts imports this module lazily), never on a Linux verb's start-up.
 */
import { realPathOrNull } from "../host_paths.ts";
import { mib, netClaims, type SandboxBackend } from "./backend.ts";
import { seatbeltArgv, type SeatbeltOptions } from "./seatbelt.ts";

/**
 * macOS sandbox-exec with a generated profile, chosen only where the first-use self-test passed on that Mac.
 * `options` says where the run's scratch dirs go; paths are canonicalized here (`/tmp` is `/private/tmp`).
 */
export function seatbeltBackend(sandboxExec: string, options: SeatbeltOptions): SandboxBackend {
  const withHost = { realpath: realPathOrNull, ...options };
  return {
    name: "seatbelt",
    level: "os",
    wrap: (policy, argv) => seatbeltArgv(sandboxExec, policy, argv, withHost),
    program: () => sandboxExec,
    enforcement: (policy) => ({
      backend: "seatbelt",
      enforced: [
        "fs:read-allowlist",
        "fs:write-worktree-only",
        "fs:git-and-locked-read-only",
        "env:cleared",
        ...netClaims(policy.network),
        "signals:same-sandbox-only",
        `limits:data=${mib(policy.limits.dataBytes)},nofile=${policy.limits.openFiles}`,
      ],
      notEnforced: [
        "pid: no PID namespace; teardown is the process-group kill, and a process that calls setsid() outlives it",
        "scratch: /tmp and HOME are real directories under the run dir, not size-capped tmpfs",
        "locks: renaming a directory above a locked file is not refused (the lock gate's hashes catch it)",
        "metadata: any path's existence, size and times can be read (stat), not its content",
        "nproc and fsize: only ulimit -d/-n apply",
        "network: the bridges listen on the host's loopback, where other local processes can reach them",
      ],
    }),
  };
}
