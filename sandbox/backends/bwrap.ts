/**
 * Pure transform of a sandbox policy into a bubblewrap command line. The
 * root starts empty: only what the policy names is visible, then `/` is
 * remounted read-only so nothing can be created beside the mounts.
 */
import { dirname, isAbsolute, normalize } from "../../base/path.ts";
import {
  type ChannelMode,
  channelsOf,
  INSIDE_BRIDGE,
  INSIDE_BRIDGE_READY,
  insideEndpoint,
  type ResourceLimits,
  type SandboxPolicy,
  SHM_SIZE_BYTES,
} from "../sandbox_policy.ts";
import { within } from "../host_paths.ts";

/** The namespace and privilege flags every sandbox gets. */
export const BWRAP_CORE_FLAGS = [
  "--unshare-all",
  // Explicit, so --disable-userns can keep the command from making a namespace that undoes the mounts.
  "--unshare-user",
  "--disable-userns",
  "--die-with-parent",
  // A new session: no TIOCSTI into a terminal of ours.
  "--new-session",
  "--cap-drop",
  "ALL",
  "--hostname",
  "spot-sandbox",
];

/** How long the wrapper waits for the bridge, in 50 ms ticks (10 s). */
const BRIDGE_WAIT_TICKS = 200;

type Mount =
  | { kind: "ro" | "rw" | "pin"; path: string }
  | { kind: "bind"; path: string; from: string }
  | { kind: "tmpfs"; path: string; sizeBytes: number }
  | { kind: "symlink"; path: string; target: string };

function depth(path: string): number {
  return path === "/" ? 0 : path.split("/").length - 1;
}

function checkPath(what: string, path: string): string {
  if (!isAbsolute(path) || path.includes("\0") || normalize(path) !== path || path.endsWith("/")) {
    throw new TypeError(`Cannot sandbox ${what} "${path}": the path is not absolute and normalized`);
  }
  return path;
}

/** The directories strictly between `root` and `path`, outermost first. */
export function pinsBetween(root: string, path: string): string[] {
  const out: string[] = [];
  for (let dir = dirname(path); dir !== root && within(dir, root); dir = dirname(dir)) out.unshift(dir);
  return out;
}

/** Every mount in the order bwrap must make them: parents before children. */
export function mountPlan(policy: SandboxPolicy): Mount[] {
  const byPath = new Map<string, Mount>();
  // Where two entries name one path, the stronger wins: writable over scratch over read-only.
  const rank = { ro: 1, symlink: 1, pin: 1, bind: 2, tmpfs: 2, rw: 3 } as const;
  const add = (m: Mount) => {
    const held = byPath.get(m.path);
    if (!held || rank[m.kind] > rank[held.kind]) byPath.set(m.path, m);
  };
  for (const s of policy.scratch) {
    add({ kind: "tmpfs", path: checkPath("scratch", s.path), sizeBytes: s.sizeBytes });
  }
  for (const l of policy.symlinks) {
    add({ kind: "symlink", path: checkPath("symlink", l.path), target: l.target });
  }
  for (const p of policy.readOnly) add({ kind: "ro", path: checkPath("read-only path", p) });
  for (const p of policy.writable) add({ kind: "rw", path: checkPath("writable path", p) });
  for (const b of policy.binds) {
    add({ kind: "bind", path: checkPath("bind target", b.to), from: checkPath("bind source", b.from) });
  }
  for (const p of policy.protected) {
    checkPath("protected path", p);
    const root = policy.writable.find((w) => within(p, w) && p !== w);
    if (!root) throw new TypeError(`Cannot protect "${p}": it is not inside a writable path`);
    for (const pin of pinsBetween(root, p)) if (!byPath.has(pin)) byPath.set(pin, { kind: "pin", path: pin });
    byPath.set(p, { kind: "ro", path: p });
  }
  // Stable: equal depths keep insertion order, and siblings never cover each other.
  const sorted = [...byPath.values()].map((m, i) => ({ m, i }))
    .sort((a, b) => depth(a.m.path) - depth(b.m.path) || a.i - b.i)
    .map(({ m }) => m);
  return sorted.filter((m) => !redundant(m, sorted));
}

/** A read-only bind inside another read-only bind shows the same files, unless a mount in between hid them. */
function redundant(m: Mount, all: Mount[]): boolean {
  if (m.kind !== "ro") return false;
  const outer = all.filter((o) => o !== m && within(m.path, o.path));
  const ro = outer.filter((o) => o.kind === "ro");
  return ro.some((r) => !outer.some((o) => o.kind !== "ro" && within(o.path, r.path) && o.path !== r.path));
}

function mountArgs(m: Mount): string[] {
  switch (m.kind) {
    case "ro":
      return ["--ro-bind", m.path, m.path];
    case "bind":
      return ["--ro-bind", m.from, m.path];
    case "rw":
    case "pin":
      return ["--bind", m.path, m.path];
    case "tmpfs":
      return ["--perms", "0700", "--size", String(m.sizeBytes), "--tmpfs", m.path];
    case "symlink":
      return ["--symlink", m.target, m.path];
  }
}

/** The limits as a `prlimit` prefix, or as `ulimit` lines for a shell when prlimit is missing. */
export function limitPrefix(limits: ResourceLimits): string[] {
  if (!limits.prlimit) return [];
  return [
    limits.prlimit,
    `--nproc=${limits.processes}`,
    `--data=${limits.dataBytes}`,
    `--fsize=${limits.fileBytes}`,
    `--nofile=${limits.openFiles}`,
    "--core=0",
    "--",
  ];
}

/** Only the options that mean the same in dash and bash; RLIMIT_NPROC and FSIZE need prlimit. */
function ulimitLines(limits: ResourceLimits): string[] {
  return [`ulimit -d ${Math.floor(limits.dataBytes / 1024)}`, `ulimit -n ${limits.openFiles}`, "ulimit -c 0"];
}

function bridgeLines(deno: string, mode: ChannelMode): string[] {
  const { socket, port } = insideEndpoint(mode);
  // One marker per bridge: with two channels, the second must not pass on the first one's.
  const ready = `${INSIDE_BRIDGE_READY}-${port}`;
  const flags = `--allow-net=127.0.0.1:${port},unix:${socket} ` +
    `--allow-read=${socket} --allow-write=${socket},${ready}`;
  const what = mode === "forwarder" ? "provider" : "egress";
  return [
    // No update check: behind the egress proxy it would be a refused request to dl.deno.land in the log.
    `DENO_NO_UPDATE_CHECK=1 '${deno}' run --no-prompt --no-config --no-lock ${flags} ${INSIDE_BRIDGE} ` +
    `${port} ${socket} ${ready} </dev/null >/dev/null 2>&1 &`,
    `n=0; while [ ! -e ${ready} ] && [ $n -lt ${BRIDGE_WAIT_TICKS} ]; do sleep 0.05; n=$((n+1)); done`,
    `[ -e ${ready} ] || { echo "spot: the ${what} bridge did not start" >&2; exit 125; }`,
  ];
}

/** What runs inside bwrap: the limits, the bridge when there is network, then the command itself. */
export function innerArgv(policy: SandboxPolicy, argv: string[]): string[] {
  const { network, limits } = policy;
  const lines = [
    ...(limits.prlimit ? [] : ulimitLines(limits)),
    ...(network.mode !== "none" ? channelsOf(network).flatMap((c) => bridgeLines(network.deno, c.mode)) : []),
  ];
  if (lines.length === 0) return [...limitPrefix(limits), ...argv];
  if (network.mode !== "none" && network.deno.includes("'")) {
    throw new TypeError(`Cannot start the bridge with deno at "${network.deno}": the path holds a quote`);
  }
  const script = [...lines, 'exec "$@"'].join("\n");
  return [...limitPrefix(limits), policy.shell, "-c", script, "spot-sandbox", ...argv];
}

/** The full bwrap argv that runs `argv` under `policy`. */
export function bwrapArgv(bwrap: string, policy: SandboxPolicy, argv: string[]): string[] {
  if (argv.length === 0) throw new TypeError("Cannot sandbox an empty command");
  checkPath("working directory", policy.cwd);
  const out = [bwrap, ...BWRAP_CORE_FLAGS];
  out.push("--dev", "/dev", "--size", String(SHM_SIZE_BYTES), "--tmpfs", "/dev/shm", "--proc", "/proc");
  for (const m of mountPlan(policy)) out.push(...mountArgs(m));
  if (policy.network.mode !== "none") {
    for (const channel of channelsOf(policy.network)) {
      const inside = insideEndpoint(channel.mode).socket;
      out.push("--ro-bind", checkPath("channel socket", channel.hostSocket), inside);
    }
    out.push("--ro-bind", checkPath("bridge program", policy.network.bridgeScript), INSIDE_BRIDGE);
  }
  // /dev is a tmpfs too: without this, a worker could fill memory through it.
  out.push("--remount-ro", "/dev", "--remount-ro", "/");
  out.push("--clearenv");
  for (const name of Object.keys(policy.env).sort()) out.push("--setenv", name, policy.env[name]);
  out.push("--chdir", policy.cwd, "--", ...innerArgv(policy, argv));
  return out;
}
