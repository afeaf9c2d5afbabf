/**
 * The host facts a sandbox policy needs: which system paths exist (and which
 * are symlinks), which PATH dirs may be shown, and which read roots would
 * show too much. The choices are pure (`safeReadRoots`); the lookups touch
 * the filesystem and nothing else. Where a tool's own install is, and how
 * little of it a sandbox needs, is tool_roots.ts.
 */
import { delimiter, isAbsolute, normalize } from "../base/path.ts";

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

/**
 * The existing absolute directories of a PATH value, for tools a command starts by name. Those under
 * HOME are left out: `~/.local/bin` or `~/.npm-global/bin` would show a worker the rest of that tree's
 * neighbours by name, and a tool there gets its own minimal roots instead (tool_roots.ts).
 */
export function pathDirs(pathVar: string, home: string | null): string[] {
  return pathVar.split(delimiter).filter((d) =>
    isAbsolute(d) && lstatOrNull(d)?.isDirectory === true && !(home && within(realPathOrNull(d) ?? d, home))
  );
}
