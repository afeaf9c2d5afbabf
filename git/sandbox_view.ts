/**
 * What a sandboxed step sees of the repository's git directory: enough to
 * read objects and its own checkout's metadata, nothing the parent keeps
 * there for itself. The parent's `config` holds what CI systems and users
 * leave in it (an `http.*.extraheader` with a token, credential helpers,
 * remote URLs with user info, includes), `hooks/` and `info/` hold scripts
 * and local rules, `packed-refs`, `logs/` and `FETCH_HEAD` name other
 * branches and remotes. So spot builds a small directory in their place:
 * a config of its own (the repository format, a few safe core settings and
 * the run's identity), the checkout's HEAD, the one ref that HEAD names, the
 * `shallow` list, and mount points where the objects (and the worktree's
 * own git dir, or the main checkout's index) are bound read-only.
 */
import { dirname, join, resolve } from "../base/path.ts";
import { git, type Identity } from "./git.ts";

/** Where a checkout's git metadata lives (real paths). */
export interface GitLayout {
  /** The checkout's `.git` (a file for a linked worktree, a directory for the main checkout). */
  dotGit: string;
  /** The checkout's own git dir (HEAD, index): `<common>/worktrees/<name>`, or the `.git` dir itself. */
  gitDir: string;
  /** The repository's common dir (objects, refs, config). */
  commonDir: string;
}

export interface ViewBind {
  from: string;
  to: string;
}

/** The view in the two forms a sandbox can show it. */
export interface GitView {
  /** For a backend that mounts (bwrap): read-only binds that put the view in the real common dir's place. */
  binds: ViewBind[];
  /**
   * For a backend that only grants reads by path (Seatbelt): what to grant (the view, the objects, the refs
   * git reads through the worktree's `commondir` file, the worktree's own git dir, never the common dir
   * whole) and the variables that make git read the view's config and the real objects.
   */
  grants: { readOnly: string[]; env: Record<string, string> };
}

/** The core settings a sandboxed git may keep, and the values each may take. */
const BOOLEAN = /^(true|false|yes|no|on|off|1|0)$/i;
const SAFE_KEYS: Record<string, RegExp> = {
  "core.repositoryformatversion": /^[01]$/,
  "extensions.objectformat": /^(sha1|sha256)$/i,
  "core.filemode": BOOLEAN,
  "core.symlinks": BOOLEAN,
  "core.ignorecase": BOOLEAN,
  "core.precomposeunicode": BOOLEAN,
  "core.autocrlf": /^(true|false|input)$/i,
  "core.eol": /^(lf|crlf|native)$/i,
};

/** A git config value, quoted: no newline, backslash and quote escaped. */
function quoted(value: string): string {
  return `"${value.replace(/[\r\n\0]/g, " ").replace(/[\\"]/g, (c) => `\\${c}`)}"`;
}

/**
 * The config a sandboxed git reads instead of the parent's: the safe keys found there (anything else, and
 * any value out of its range, is dropped), `core.bare = false`, and the run's identity. Pure.
 */
export function minimalConfig(found: Record<string, string>, identity: Identity): string {
  const keep = Object.entries(SAFE_KEYS)
    .filter(([key, allowed]) => found[key] !== undefined && allowed.test(found[key]))
    .map(([key]) => [key, found[key].toLowerCase()] as const);
  const sections = new Map<string, string[]>([["core", ["\tbare = false"]]]);
  for (const [key, value] of keep) {
    const [section, name] = key.split(".");
    sections.set(section, [...(sections.get(section) ?? []), `\t${name} = ${value}`]);
  }
  // An object format other than sha1 is an extension, which format version 1 must announce.
  if (keep.some(([key]) => key === "extensions.objectformat")) {
    const core = sections.get("core")!.filter((l) => !l.includes("repositoryformatversion"));
    sections.set("core", [...core, "\trepositoryformatversion = 1"]);
  }
  sections.set("user", [`\tname = ${quoted(identity.name)}`, `\temail = ${quoted(identity.email)}`]);
  return [...sections].map(([name, lines]) => `[${name}]\n${lines.join("\n")}\n`).join("");
}

async function readText(path: string): Promise<string | null> {
  return await Deno.readTextFile(path).catch(() => null);
}

async function isDir(path: string): Promise<boolean> {
  return (await Deno.stat(path).catch(() => null))?.isDirectory === true;
}

/** The safe keys' values in the repository's own config file (never its includes). */
async function safeValues(commonDir: string): Promise<Record<string, string>> {
  const r = await git(
    ["config", "--file", join(commonDir, "config"), "--get-regexp", "^(core|extensions)\\."],
    { cwd: commonDir, allowFailure: true },
  );
  const found: Record<string, string> = {};
  for (const line of r.exitCode === 0 ? r.stdout.split("\n") : []) {
    const space = line.indexOf(" ");
    const key = (space > 0 ? line.slice(0, space) : line).toLowerCase();
    if (key in SAFE_KEYS) found[key] = space > 0 ? line.slice(space + 1).trim() : "true";
  }
  return found;
}

/** The object dirs `objects/info/alternates` names: a sandboxed git reads objects from them too. */
async function alternates(commonDir: string): Promise<string[]> {
  const objects = join(commonDir, "objects");
  const text = await readText(join(objects, "info", "alternates")) ?? "";
  const out: string[] = [];
  for (const line of text.split("\n").map((l) => l.trim())) {
    if (!line || line.startsWith("#")) continue;
    const dir = await Deno.realPath(resolve(objects, line)).catch(() => null);
    if (dir && await isDir(dir)) out.push(dir);
  }
  return out;
}

/** Writes the ref HEAD names, if it is a branch that resolves, as a loose ref of the view. */
async function writeHeadRef(layout: GitLayout, head: string, view: string): Promise<void> {
  const ref = /^ref:\s*(refs\/heads\/\S+)\s*$/.exec(head)?.[1];
  if (!ref || ref.split("/").some((part) => part === ".." || part === "." || part === "")) return;
  const r = await git(["rev-parse", "--verify", "--quiet", `${ref}^{commit}`], {
    cwd: layout.gitDir,
    gitDir: layout.gitDir,
    allowFailure: true,
  });
  const commit = r.stdout.trim();
  if (r.exitCode !== 0 || !/^[0-9a-f]{40,64}$/.test(commit)) return;
  await Deno.mkdir(join(view, dirname(ref)), { recursive: true });
  await Deno.writeTextFile(join(view, ref), `${commit}\n`);
}

/**
 * Builds the view in `viewDir` (emptied first) and returns how to show it in place of the real common dir.
 * Mounted, nothing of the real common dir is shown but `objects/` (and the alternates it names) and the
 * checkout's own git dir: a linked worktree's `worktrees/<name>`, or the main checkout's index. Granted by
 * path, git also needs the real `refs/` and `packed-refs` (other branches' names, never a secret).
 */
export async function buildGitView(
  layout: GitLayout,
  options: { viewDir: string; identity: Identity },
): Promise<GitView> {
  const view = options.viewDir;
  await Deno.remove(view, { recursive: true }).catch(() => {});
  await Deno.mkdir(join(view, "refs", "heads"), { recursive: true, mode: 0o700 });
  await Deno.mkdir(join(view, "refs", "tags"), { recursive: true });
  await Deno.mkdir(join(view, "objects"));
  const { commonDir, gitDir } = layout;
  await Deno.writeTextFile(
    join(view, "config"),
    minimalConfig(await safeValues(commonDir), options.identity),
  );
  const head = await readText(join(gitDir, "HEAD")) ?? "";
  await Deno.writeTextFile(join(view, "HEAD"), head || "ref: refs/heads/main\n");
  await writeHeadRef(layout, head, view);
  const shallow = await readText(join(commonDir, "shallow"));
  if (shallow !== null) await Deno.writeTextFile(join(view, "shallow"), shallow);
  const binds: ViewBind[] = [
    { from: view, to: commonDir },
    { from: join(commonDir, "objects"), to: join(commonDir, "objects") },
    ...(await alternates(commonDir)).map((dir) => ({ from: dir, to: dir })),
  ];
  if (gitDir !== commonDir) {
    const rel = gitDir.startsWith(`${commonDir}/`) ? gitDir.slice(commonDir.length + 1) : null;
    if (rel) await Deno.mkdir(join(view, rel), { recursive: true });
    binds.push({ from: gitDir, to: gitDir });
  } else if ((await Deno.stat(join(gitDir, "index")).catch(() => null))?.isFile) {
    await Deno.writeTextFile(join(view, "index"), "");
    binds.push({ from: join(gitDir, "index"), to: join(gitDir, "index") });
  }
  const objects = join(commonDir, "objects");
  const refs = [join(commonDir, "refs"), join(commonDir, "packed-refs")];
  const grants = {
    readOnly: [view, ...binds.slice(1).map((b) => b.to), ...refs.filter((p) => exists(p))],
    env: { GIT_COMMON_DIR: view, GIT_OBJECT_DIRECTORY: objects },
  };
  return { binds, grants };
}

function exists(path: string): boolean {
  try {
    Deno.lstatSync(path);
    return true;
  } catch {
    return false;
  }
}
