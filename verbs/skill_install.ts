/**
 * `spot skill install [--for claude-code|codex] [--dir DIR]`: copies the skill (skill/SKILL.md, its
 * references, the examples and the JSON Schemas a parent writes against) where the parent agent looks for
 * skills, and says which PARENT_AGENT to export so spot meters and routes for that parent. Claude Code reads
 * ~/.claude/skills/<name>/; Codex reads $CODEX_HOME/skills/<name>/ (~/.codex by default). Beside it go two
 * one-paragraph skills under the seed's names, `spotworkers` and `pi-delegate`, so `$spotworkers` and
 * `$pi-delegate` still find it; an alias directory spot did not write is left alone.
 */
import { dirname, fromFileUrl, join, relative, resolve } from "../base/path.ts";
import { SpotError } from "../errors.ts";
import type { SpotContext } from "../store/context.ts";

export const SKILL_PARENTS = ["claude-code", "codex"] as const;
export type SkillParent = typeof SKILL_PARENTS[number];

function filesUnder(dir: string): string[] {
  const out: string[] = [];
  for (const entry of Deno.readDirSync(dir)) {
    const path = join(dir, entry.name);
    if (entry.isDirectory) out.push(...filesUnder(path));
    else if (entry.isFile) out.push(path);
  }
  return out.sort();
}

function home(ctx: SpotContext): string {
  const value = ctx.env("HOME");
  if (!value) throw new SpotError("CLI_USAGE", "Cannot find the home directory: HOME is not set; give --dir");
  return value;
}

/** Where the parent looks for the skill named `spot`. */
export function skillTarget(ctx: SpotContext, parent: SkillParent): string {
  if (parent === "codex") return join(ctx.env("CODEX_HOME") || join(home(ctx), ".codex"), "skills", "spot");
  return join(home(ctx), ".claude", "skills", "spot");
}

function parentOf(ctx: SpotContext, given?: string): SkillParent {
  const value = given ?? ctx.env("PARENT_AGENT") ?? "claude-code";
  if ((SKILL_PARENTS as readonly string[]).includes(value)) return value as SkillParent;
  if (given === undefined) return "claude-code";
  throw new SpotError(
    "CLI_USAGE",
    `Cannot install the skill for "${value}": expected one of ${SKILL_PARENTS.join(", ")}`,
  );
}

/** The seed's names for this skill: its own, and the one before that. */
export const SKILL_ALIASES = ["spotworkers", "pi-delegate"] as const;

/** A line every alias spot writes has: an alias directory without it, or holding more, is the user's. */
const ALIAS_MARK = "<!-- written by spot skill install: an alias of the spot skill -->";

function aliasText(alias: string): string {
  return [
    "---",
    `name: ${alias}`,
    `description: The former name of the spot skill ($${alias}). Delegate a bounded, checkable coding task to a ` +
    "cheap worker CLI through spot, verified and sandboxed; follow the spot skill installed beside this one.",
    "---",
    "",
    ALIAS_MARK,
    "",
    `\`${alias}\` is what the spot skill was called before. Read and follow \`../spot/SKILL.md\` (the skill`,
    "installed beside this one); the `pi-worker` command is the same as `spot`.",
    "",
  ].join("\n");
}

/** Writes an alias beside the skill unless its directory holds something spot did not write; its path, or null. */
async function writeAlias(skillsDir: string, alias: string): Promise<string | null> {
  const dir = join(skillsDir, alias);
  const file = join(dir, "SKILL.md");
  const existing = await Deno.readTextFile(file).catch(() => null);
  const entries = await Array.fromAsync(Deno.readDir(dir)).catch(() => []);
  const others = entries.filter((e) => e.name !== "SKILL.md");
  if ((existing !== null && !existing.split("\n").includes(ALIAS_MARK)) || others.length > 0) return null;
  await Deno.mkdir(dir, { recursive: true });
  await Deno.writeTextFile(file, aliasText(alias));
  return dir;
}

export async function installSkill(ctx: SpotContext, options: { for?: string; dir?: string }) {
  const parent = parentOf(ctx, options.for);
  const target = options.dir ? resolve(ctx.cwd, options.dir) : skillTarget(ctx, parent);
  const source = fromFileUrl(new URL("../skill/", import.meta.url));
  const files = filesUnder(source);
  for (const file of files) {
    const to = join(target, relative(source, file));
    await Deno.mkdir(dirname(to), { recursive: true });
    await Deno.copyFile(file, to);
  }
  // With --dir the caller chose one directory: nothing is written beside it.
  const aliases: string[] = [];
  const skipped: string[] = [];
  for (const alias of options.dir ? [] : SKILL_ALIASES) {
    const written = await writeAlias(dirname(target), alias);
    if (written) aliases.push(written);
    else skipped.push(join(dirname(target), alias));
  }
  return {
    for: parent,
    installed: target,
    files: files.map((f) => relative(source, f)),
    /** The seed's names, each a skill that points at this one. */
    aliases,
    /** Alias directories that hold something spot did not write, left as they are. */
    aliasesSkipped: skipped,
    export: `export PARENT_AGENT=${parent}`,
    /** The command that registers spot's MCP server with that parent (docs/mcp.md). */
    mcp: `${parent === "codex" ? "codex" : "claude"} mcp add spot --env PARENT_AGENT=${parent} -- spot mcp`,
  };
}
