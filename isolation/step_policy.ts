/**
 * The one place a step's sandbox policy is decided. From the kind of step
 * (a worker turn, a self-review turn, a verification check) and the facts
 * gathered for the run, it returns plain data: what is visible read-only,
 * what is writable, what stays read-only under a writable root (the `.git`
 * file, locked files), the private /tmp and HOME, the environment and the
 * network. Pure: the sandbox backend turns the result into an argv, and
 * `backend.enforcement(policy)` says what the run got.
 */
import { safeReadRoots } from "../sandbox/host_paths.ts";
import { type Tool, toolLinks, toolReadRoots } from "../sandbox/tool_roots.ts";
import {
  DEFAULT_LIMITS,
  HOME_SIZE_BYTES,
  insideEndpoint,
  type NetworkPolicy,
  type SandboxPolicy,
  TMP_SIZE_BYTES,
} from "../sandbox/sandbox_policy.ts";
import type { StepKind } from "../schemas/sandbox_record.ts";
import type { CwdFacts, HostFacts } from "./host_facts.ts";

export interface StepRequest {
  kind: StepKind;
  /** The checkout the command works in; writable unless the step or `readOnlyCwd` says otherwise. */
  cwd: string;
  /** A worker turn that may only read (a job's scout, planner, reviewer or research task). */
  readOnlyCwd?: boolean;
  /** More writable directories (the caller creates them first). */
  writable?: string[];
  /** More read-only paths (files named on the worker's command line); unsafe ones are dropped. */
  readOnly?: string[];
  /** Binaries the command starts; their installs become readable. */
  tools: Tool[];
  /** Directories shown read-only at another path (dependency dirs), decided by the caller. */
  binds?: { from: string; to: string }[];
  /** spot's own files the command needs (the checks' Python guard), shown read-only where they are. */
  spotFiles?: string[];
  /** The private HOME (an empty tmpfs) and the files written into it beforehand. */
  home: { path: string; files?: string[] };
  env: Record<string, string>;
  network: NetworkPolicy;
}

/** An empty tmpfs laid over spot's own `.git` dir: nothing is meant to be written there. */
const SPOT_GIT_COVER_BYTES = 1024 * 1024;

/** Worker turns see spot's own checkout read-only: the replay worker and test fixtures run from it. */
function showsSpotRoot(kind: StepKind): boolean {
  return kind === "worker" || kind === "self-review";
}

/**
 * Behind the egress proxy, every client that honours the usual variables finds it (npm, pip, uv, curl). Beside
 * the forwarder (a research turn's web proxy), the provider's loopback base URL is left out by NO_PROXY; a
 * client that ignores it reaches the forwarder anyway, through the proxy's provider route.
 */
function proxyEnv(network: NetworkPolicy): Record<string, string> {
  const beside = network.mode === "forwarder" && !!network.web?.proxySocket;
  if (network.mode !== "proxy" && !beside) return {};
  const url = `http://127.0.0.1:${insideEndpoint("proxy").port}`;
  const local: Record<string, string> = beside
    ? { NO_PROXY: "127.0.0.1,localhost", no_proxy: "127.0.0.1,localhost" }
    : {};
  // Node's own fetch reads them only when told to (Node 24+); npm, pip and uv read them anyway.
  return {
    HTTP_PROXY: url,
    HTTPS_PROXY: url,
    http_proxy: url,
    https_proxy: url,
    NODE_USE_ENV_PROXY: "1",
    ...local,
  };
}

/**
 * A self-review turn, or a turn its caller made read-only (a job's read-only roles), only reads the worktree: it
 * is mounted read-only, so no flag of the CLI matters.
 */
function writesCwd(request: StepRequest): boolean {
  return request.kind !== "self-review" && !request.readOnlyCwd;
}

export function buildStepPolicy(request: StepRequest, host: HostFacts, cwd: CwdFacts): SandboxPolicy {
  const writable = [...(writesCwd(request) ? [request.cwd] : []), ...(request.writable ?? [])];
  const shownSpotRoot = showsSpotRoot(request.kind) ? host.spotRoot : null;
  const candidates = [
    ...host.pathDirs,
    ...(shownSpotRoot ? [shownSpotRoot] : []),
    ...(host.denoDir ? [host.denoDir] : []),
  ];
  const readOnly = [
    ...host.system.readOnly,
    ...(writesCwd(request) ? [] : [request.cwd]),
    ...safeReadRoots(candidates, host.keepOut, writable),
    ...toolReadRoots([...request.tools, ...host.baseTools], host.keepOut, writable),
    ...safeReadRoots(request.readOnly ?? [], host.keepOut, writable),
    ...(request.home.files ?? []),
    ...(request.spotFiles ?? []),
    // Without mounts, the git view is granted path by path and git is pointed at it.
    ...(!host.mounts && cwd.gitView ? cwd.gitView.grants.readOnly : []),
  ];
  const env: Record<string, string> = {
    TMPDIR: "/tmp",
    ...request.env,
    ...proxyEnv(request.network),
    ...(!host.mounts && cwd.gitView ? cwd.gitView.grants.env : {}),
    HOME: request.home.path,
  };
  if (host.denoDir && readOnly.includes(host.denoDir)) env.DENO_DIR = host.denoDir;
  return {
    cwd: request.cwd,
    readOnly: [...new Set(readOnly)],
    symlinks: [
      ...host.system.symlinks,
      ...toolLinks([...request.tools, ...host.baseTools], [...writable, ...readOnly]),
    ],
    writable,
    // Under a read-only worktree there is nothing left to protect.
    protected: writesCwd(request) ? [...(cwd.dotGit ? [cwd.dotGit] : []), ...cwd.locked] : [],
    // The git dir as spot's view of it (objects and the checkout's own metadata), never the parent's whole.
    binds: [...(request.binds ?? []), ...(host.mounts && cwd.gitView ? cwd.gitView.binds : [])],
    scratch: [
      { path: "/tmp", sizeBytes: TMP_SIZE_BYTES },
      { path: request.home.path, sizeBytes: HOME_SIZE_BYTES },
      // spot's own repository config (a clone's remote URL, its credentials) is not the worker's to read.
      ...(host.mounts && shownSpotRoot && host.spotGitDir && readOnly.includes(shownSpotRoot)
        ? [{ path: host.spotGitDir, sizeBytes: SPOT_GIT_COVER_BYTES }]
        : []),
    ],
    env,
    network: request.network,
    limits: { ...DEFAULT_LIMITS, prlimit: host.prlimit },
    shell: host.shell,
  };
}
