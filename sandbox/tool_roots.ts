/**
 * How little of a tool's install a sandbox must show for the tool to run.
 * Outside HOME a tool gets its install root (the outermost node_modules of
 * an npm package, the prefix above a `bin` dir). Under HOME it gets only
 * its own package dir, or its binary, or a versioned runtime's `bin` and
 * `lib`: never the prefix, which is where `etc/npmrc`, `credentials.toml`
 * and their like live. No root that holds a credential file is shown,
 * wherever it is. The decisions are pure (`toolRootCandidates`); looking at
 * the disk is `resolveTools` and `holdsCredentials`.
 */
import { dirname, join } from "../base/path.ts";
import { realPathOrNull, safeReadRoots, within } from "./host_paths.ts";

/** Paths, relative to a directory, whose presence means the directory holds a credential. */
export const CREDENTIAL_MARKERS = [
  "etc/npmrc",
  ".npmrc",
  "npmrc",
  "credentials.toml",
  "credentials",
  "credentials.json",
  ".credentials.json",
  "auth.json",
  ".netrc",
  ".git-credentials",
  ".pypirc",
  "pip.conf",
  "hosts.yml",
  ".env",
  ".docker/config.json",
];

export function holdsCredentials(dir: string): boolean {
  return CREDENTIAL_MARKERS.some((rel) => {
    try {
      Deno.lstatSync(join(dir, rel));
      return true;
    } catch {
      return false;
    }
  });
}

/** A binary a command starts, its real path (null when it does not exist) and what to show of it. */
export interface Tool {
  bin: string;
  real: string | null;
  /** Read roots, already free of credential files; filtered again against the step's writable roots. */
  roots: string[];
  /**
   * A binary that is a symlink no shown directory holds (`~/.npm-global/bin/tsc -> ../lib/...`), recreated
   * as a symlink: bound as a file it would lose the path its script resolves its own modules from.
   */
  links: { path: string; target: string }[];
}

/** One candidate root; `dir` roots are checked for credential files, files are shown as they are. */
export interface Candidate {
  path: string;
  dir: boolean;
}

/** `.../node_modules/<pkg>` or `.../node_modules/@scope/<pkg>` of the outermost node_modules. */
function packageDir(parts: string[], nm: number): string {
  const width = parts[nm + 1]?.startsWith("@") ? 3 : 2;
  return parts.slice(0, nm + width).join("/");
}

const isBinDir = (dir: string) => dir.endsWith("/bin") && dir !== "/bin" && dir !== "/usr/bin";
/** `~/.nvm/versions/node/v20`, `~/.pyenv/versions/3.11.7`: a runtime that owns its prefix. */
const VERSIONED = /\/versions\/(?:[^/]+\/)?[^/]+$/;

/** Where a tool lives, as candidate roots, given whether it is under HOME. Pure. */
export function toolRootCandidates(bin: string, real: string, home: string | null): Candidate[] {
  const underHome = home !== null && (within(real, home) || within(bin, home));
  const files: Candidate[] = [...new Set([bin, real])].map((path) => ({ path, dir: false }));
  // `~/.nvm/versions/node/v20/bin/npm -> ../lib/node_modules/npm/...`: the runtime that owns it, whole.
  const binDir = dirname(bin);
  if (underHome && isBinDir(binDir) && VERSIONED.test(dirname(binDir))) {
    return [{ path: binDir, dir: true }, { path: join(dirname(binDir), "lib"), dir: true }, ...files];
  }
  const parts = real.split("/");
  const nm = parts.indexOf("node_modules");
  if (nm > 0) {
    const root = underHome ? packageDir(parts, nm) : parts.slice(0, nm + 1).join("/");
    return [{ path: root, dir: true }, ...files];
  }
  const dir = dirname(real);
  if (!isBinDir(dir)) return underHome ? files : [{ path: dir, dir: true }, ...files];
  const prefix = dirname(dir);
  if (!underHome) return [{ path: prefix, dir: true }, { path: dir, dir: true }, ...files];
  if (!VERSIONED.test(prefix)) return files;
  return [{ path: dir, dir: true }, { path: join(prefix, "lib"), dir: true }, ...files];
}

/**
 * The roots to show of one tool: the first candidate directory that exists and holds no credential
 * (the prefix, else its bin dir), the runtime's lib dir beside it, and the binary itself.
 */
function vet(candidates: Candidate[]): string[] {
  const out: string[] = [];
  let haveDir = false;
  for (const c of candidates) {
    if (!c.dir) {
      out.push(c.path);
      continue;
    }
    const lib = c.path.endsWith("/lib");
    if (haveDir && !lib) continue;
    if (realPathOrNull(c.path) === null || holdsCredentials(c.path)) continue;
    out.push(c.path);
    if (!lib) haveDir = true;
  }
  return out;
}

/** Looks up where each binary really lives and how much of it may be shown. */
export function resolveTools(binaries: string[], home: string | null): Tool[] {
  return binaries.map((bin) => {
    const real = realPathOrNull(bin);
    if (!real) return { bin, real, roots: [], links: [] };
    const roots = vet(toolRootCandidates(bin, real, home));
    const held = roots.some((r) => r !== bin && within(bin, r));
    if (real === bin || held) return { bin, real, roots, links: [] };
    return { bin, real, roots: roots.filter((r) => r !== bin), links: [{ path: bin, target: real }] };
  });
}

/** The symlinks these tools need recreated, minus any a shown root already holds. Pure. */
export function toolLinks(tools: Tool[], shown: string[]): { path: string; target: string }[] {
  return tools.flatMap((t) => t.links).filter((l) => !shown.some((root) => within(l.path, root)));
}

/** What to show read-only so these tools run, minus what is writable or would show a kept-out path. Pure. */
export function toolReadRoots(tools: Tool[], keepOut: string[], writable: string[]): string[] {
  const out: string[] = [];
  for (const tool of tools) {
    for (const p of safeReadRoots(tool.roots, keepOut, writable)) if (!out.includes(p)) out.push(p);
  }
  return out;
}
