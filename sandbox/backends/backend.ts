/**
 * One interface for every OS sandbox backend: wrap a command under a policy
 * (pure), say which binary the spawning step must be allowed to run, and say
 * honestly what was and was not enforced.
 */
import { bwrapArgv } from "./bwrap.ts";
import type { SandboxLevel } from "../policy.ts";
import type { BackendName, Enforcement, SandboxPolicy } from "../sandbox_policy.ts";

export interface SandboxBackend {
  readonly name: BackendName;
  /** What steps.jsonl and state.json record for a command run this way. */
  readonly level: SandboxLevel;
  /** The argv to spawn instead of `argv`. */
  wrap(policy: SandboxPolicy, argv: string[]): string[];
  /** The program the spawning step must be allowed to run (`--allow-run`). */
  program(argv: string[]): string;
  enforcement(policy: SandboxPolicy, facts: { uid: number | null }): Enforcement;
}

/** What a run without an OS sandbox gets, whatever the command: it depends on no policy. */
export function noneEnforcement(): Enforcement {
  return {
    backend: "none",
    enforced: ["env:cleared-at-spawn", "process-group-kill"],
    notEnforced: [
      "filesystem: the command can read and write anything the user can",
      "network: the command can reach any host",
      "processes: a detached process (setsid, a double fork) is ended only by spot as its subreaper, so it survives if spot is killed",
      "secrets: the provider key is in the worker's environment",
    ],
  };
}

/** No OS sandbox: the command runs with the user's rights. Only on explicit request. */
export const noneBackend: SandboxBackend = {
  name: "none",
  level: "deno-permissions",
  wrap: (_policy, argv) => argv,
  program: (argv) => argv[0],
  enforcement: noneEnforcement,
};

/** What the network held: its channels, and a research turn's web hosts (`none`: every fetch refused). */
export function netClaims(network: SandboxPolicy["network"]): string[] {
  if (network.mode === "none") return ["net:none"];
  const web = network.web ? [`net:web-allowlist=${network.web.hosts.join(",") || "none"}`] : [];
  if (network.mode === "forwarder") {
    return [web.length ? "net:provider-forwarder" : "net:provider-forwarder-only", ...web];
  }
  return [`net:egress-allowlist=${(network.allow ?? []).join(",")}`, ...web];
}

/** A byte count in whole MiB, as the enforcement claims say it. */
export function mib(bytes: number): string {
  return `${Math.round(bytes / 1024 ** 2)}MiB`;
}

/** Linux bubblewrap at a resolved, verified path. */
export function bwrapBackend(bwrap: string): SandboxBackend {
  return {
    name: "bwrap",
    level: "os",
    wrap: (policy, argv) => bwrapArgv(bwrap, policy, argv),
    program: () => bwrap,
    enforcement: (policy, facts) => {
      const l = policy.limits;
      const limits = l.prlimit
        ? [
          `limits:nproc=${l.processes},data=${mib(l.dataBytes)},fsize=${
            mib(l.fileBytes)
          },nofile=${l.openFiles}`,
        ]
        : [`limits:data=${mib(l.dataBytes)},nofile=${l.openFiles}`];
      const notEnforced = [
        "seccomp: no system-call filter (ptrace, io_uring and others are limited only by the namespaces)",
        "cgroups: limits are per-process rlimits, not a memory or CPU budget for the whole sandbox",
      ];
      if (!l.prlimit) notEnforced.push("nproc and fsize: prlimit was not found, so only ulimit -d/-n apply");
      if (facts.uid === 0) notEnforced.push("nproc: the kernel does not apply RLIMIT_NPROC to uid 0");
      return {
        backend: "bwrap",
        enforced: [
          "fs:read-allowlist",
          "fs:write-worktree-only",
          "fs:git-and-locked-read-only",
          ...policy.scratch.map((s) => `tmpfs:${s.path}=${mib(s.sizeBytes)}`),
          "env:cleared",
          ...netClaims(policy.network),
          "pid:namespace",
          "userns:disabled-inside",
          "caps:dropped",
          "session:new",
          "die-with-parent",
          ...limits,
        ],
        notEnforced,
      };
    },
  };
}
