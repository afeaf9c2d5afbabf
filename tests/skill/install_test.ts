/** `spot skill install` copies the skill where each parent looks, and names the PARENT_AGENT to export. */
import assert from "node:assert/strict";
import { join } from "node:path";
import { ROOT, spot, spotEnv } from "../helpers.ts";

Deno.test("skill install puts SKILL.md and its references where Claude Code and Codex look", async () => {
  const env = await spotEnv();
  env.env.HOME = join(env.dir, "home");
  const claude = await spot(env, env.dir, "skill", "install");
  assert.equal(claude.code, 0, claude.stderr);
  const claudeDir = join(env.dir, "home", ".claude", "skills", "spot");
  assert.equal(claude.json.installed, claudeDir);
  assert.equal(claude.json.export, "export PARENT_AGENT=claude-code");
  assert.equal(
    await Deno.readTextFile(join(claudeDir, "SKILL.md")),
    await Deno.readTextFile(join(ROOT, "skill", "SKILL.md")),
  );
  assert.ok((await Deno.stat(join(claudeDir, "references", "review-policy.md"))).isFile);
  env.env.CODEX_HOME = join(env.dir, "codex-home");
  const codex = await spot(env, env.dir, "skill", "install", "--for", "codex");
  assert.equal(codex.json.installed, join(env.dir, "codex-home", "skills", "spot"));
  assert.equal(codex.json.export, "export PARENT_AGENT=codex");
  const bad = await spot(env, env.dir, "skill", "install", "--for", "cursor");
  assert.equal(bad.code, 2);
  assert.equal((bad.json.error as { code: string }).code, "CLI_USAGE");
});

Deno.test("the Claude Code plugin manifest ships the skill and the MCP server together", async () => {
  const manifest = JSON.parse(await Deno.readTextFile(join(ROOT, ".claude-plugin", "plugin.json")));
  const deno = JSON.parse(await Deno.readTextFile(join(ROOT, "deno.json")));
  assert.equal(manifest.version, deno.version);
  for (const dir of manifest.skills) assert.ok((await Deno.stat(join(ROOT, dir, "SKILL.md"))).isFile);
  assert.deepEqual(manifest.mcpServers.spot.args, ["mcp"]);
});
