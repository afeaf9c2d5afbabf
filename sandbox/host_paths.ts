/**
 * The host facts a sandbox policy needs: which system paths exist (and which
 * are symlinks), and where a tool really lives so its whole install can be
 * shown read-only. The choices are pure (`installRoot`, `safeReadRoots`);
 * the lookups touch the filesystem and nothing else.
 */
import { delimiter, dirname, isAbsolute, normalize } from "node:path";

/** Top-level system directories a program needs; missing ones are skipped. */
export const SYSTEM_DIRS = ["/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32"];

/**
 * The few files of /etc that programs read to start: the loader, users and
 * groups (for os.userInfo), TLS roots, time zone. Never shadow, sudoers,
 * npmrc or anything that can hold a secret.
 */
export const ETC_PATHS = [
  "/etc/ld.so.cache",
  "/etc/ld.so.conf",
  "/etc/ld.so.conf.d",
  "/etc/alternatives",
  "/etc/passwd",
  "/etc/group",
  "/etc/nsswitch.conf",
  "/etc/hosts",
  "/etc/localtime",
  "/etc/timezone",
  "/etc/ssl",
  "/etc/ca-certificates",
  "/etc/pki",
  "/etc/crypto-policies",
  "/etc/mime.types",
  "/etc/os-release",
];

/** True when `inner` is `outer` or lies beneath it. */
export function within(inner: string, outer: string): boolean {
  return inner === outer || inner.startsWith(outer === "/" ? "/" : `${outer}/`);
}

export interface SystemView {
  readOnly: string[];
  symlinks: { path: string; target: string }[];
}

function lstatOrNull(path: string): Deno.FileInfo | null {
  try {
    return Deno.lstatSync(path);
  } catch {
    return null;
  }
}

/** System dirs and /etc files as they exist here; merged-/usr symlinks are recreated, not followed. */
export function systemView(): SystemView {
  const view: SystemView = { readOnly: [], symlinks: [] };
  for (const path of [...SYSTEM_DIRS, ...ETC_PATHS]) {
    const info = lstatOrNull(path);
    if (!info) continue;
    if (info.isSymlink) {
      const target = Deno.readLinkSync(path);
      // /etc/localtime -> /usr/share/zoneinfo/... works as a link because /usr is there too.
      view.symlinks.push({ path, target });
    } else {
      view.readOnly.push(path);
    }
  }
  return view;
}

/**
 * Where a tool's install starts, from the real path of its binary: the
 * outermost node_modules for npm packages (the code and its dependencies),
 * the prefix above a `bin` directory, else the binary's own directory.
 */
export function installRoot(realPath: string): string {
  const parts = realPath.split("/");
  const nm = parts.indexOf("node_modules");
  if (nm > 0) return parts.slice(0, nm + 1).join("/");
  const dir = dirname(realPath);
  return dir.endsWith("/bin") && dir !== "/bin" && dir !== "/usr/bin" ? dirname(dir) : dir;
}

/**
 * Drops read roots that would show too much: `/` and top-level dirs
 * (/home, /tmp, /root), anything that holds a path that must stay out of
 * reach (the real HOME, spot's state, the user's checkout, other worktrees),
 * and anything already inside a writable root. What is left is deduplicated.
 */
export function safeReadRoots(candidates: string[], keepOut: string[], writable: string[]): string[] {
  const out: string[] = [];
  for (const raw of candidates) {
    if (!isAbsolute(raw)) continue;
    const path = normalize(raw).replace(/\/+$/, "");
    if (path === "" || path.split("/").length <= 2 && !SYSTEM_DIRS.includes(path)) continue;
    if (keepOut.some((k) => within(k, path))) continue;
    if (writable.some((w) => within(path, w))) continue;
    if (!out.includes(path)) out.push(path);
  }
  return out;
}

/** The real path, or null when it does not exist. */
export function realPathOrNull(path: string): string | null {
  try {
    return Deno.realPathSync(path);
  } catch {
    return null;
  }
}

/** A binary a command starts, with its real path (null when it does not exist). */
export interface Tool {
  bin: string;
  real: string | null;
}

/** Looks up where each binary really lives. */
export function resolveTools(binaries: string[]): Tool[] {
  return binaries.map((bin) => ({ bin, real: realPathOrNull(bin) }));
}

/**
 * What to show read-only so these tools run: each one's install root, or
 * when that is unsafe, the binary itself (and its real file). Pure.
 */
export function toolReadRoots(tools: Tool[], keepOut: string[], writable: string[]): string[] {
  const out: string[] = [];
  for (const { bin, real } of tools) {
    if (!real) continue;
    const roots = safeReadRoots([installRoot(real), installRoot(bin)], keepOut, writable);
    const files = roots.length > 0 ? [] : safeReadRoots([bin, real], keepOut, writable);
    for (const p of [...roots, ...files]) if (!out.includes(p)) out.push(p);
  }
  return out;
}

/** The existing absolute directories of a PATH value, for tools a command starts by name. */
export function pathDirs(pathVar: string): string[] {
  return pathVar.split(delimiter).filter((d) => isAbsolute(d) && lstatOrNull(d)?.isDirectory === true);
}
