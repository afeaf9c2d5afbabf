/**
 * The MCP tools the skill names: every `spot_<verb>` it writes, and the tool of every `spot <verb>` command
 * it shows (in code), read from skill/SKILL.md and skill/references/*.md against the verb table. A verb
 * that is no tool by design (a server, a terminal, a shell: docs/mcp.md) is left out by name, so a verb
 * that silently lost its tool is still named.
 */
import { join } from "node:path";
import { toolName, VERBS } from "../../table/mod.ts";
import { ROOT } from "../helpers.ts";

/** Commands the skill may show that are not tools over MCP (docs/mcp.md, "Not tools"). */
export const NOT_TOOLS = ["serve", "monitor", "mcp", "skill install", "completions", "executor join"];

async function skillText(): Promise<string> {
  const dir = join(ROOT, "skill");
  const parts = [await Deno.readTextFile(join(dir, "SKILL.md"))];
  for await (const entry of Deno.readDir(join(dir, "references"))) {
    if (entry.name.endsWith(".md")) parts.push(await Deno.readTextFile(join(dir, "references", entry.name)));
  }
  return parts.join("\n");
}

export async function skillTools(): Promise<string[]> {
  const text = await skillText();
  const names = new Set<string>();
  for (const m of text.matchAll(/\bspot_[a-z_]+[a-z]\b/g)) names.add(m[0]);
  // Commands in code: a `spot …` span, a code block's line, or an indented example.
  const code = [
    ...[...text.matchAll(/`([^`\n]+)`/g)].map((m) => m[1]),
    ...text.split("\n").filter((l) => /^\s*spot /.test(l)),
  ];
  const verbs = [...VERBS].sort((a, b) => b.name.length - a.name.length);
  for (const span of code) {
    for (const m of span.matchAll(/(?:^|[\s;&|(])spot ([a-z][a-z-]*(?: [a-z][a-z-]*)?)/g)) {
      const words = m[1];
      const v = verbs.find((v) => words === v.name || words.startsWith(`${v.name} `));
      if (v && !v.hidden && !NOT_TOOLS.includes(v.name)) names.add(toolName(v));
    }
  }
  return [...names].sort();
}
