/**
 * `spot skill install [--for claude-code|codex] [--dir DIR]`: copies the skill (skill/SKILL.md and its
 * references) where the parent agent looks for skills, and says which PARENT_AGENT to export so spot meters
 * and routes for that parent. Claude Code reads ~/.claude/skills/<name>/; Codex reads $CODEX_HOME/skills/<name>/
 * (~/.codex by default).
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
  return {
    for: parent,
    installed: target,
    files: files.map((f) => relative(source, f)),
    export: `export PARENT_AGENT=${parent}`,
    /** The command that registers spot's MCP server with that parent (docs/mcp.md). */
    mcp: `${parent === "codex" ? "codex" : "claude"} mcp add spot --env PARENT_AGENT=${parent} -- spot mcp`,
  };
}
