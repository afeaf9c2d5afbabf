/** `spot skill install` copies the skill where each parent looks, and names the PARENT_AGENT to export. */
import assert from "node:assert/strict";
import { join } from "node:path";
import { SKILL_SCHEMAS } from "../../schemas/emit/json_schemas.ts";
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
  // The schemas SKILL.md names, the generated ones, and the examples, beside it.
  for (const [name, source] of Object.entries(SKILL_SCHEMAS)) {
    assert.equal(
      await Deno.readTextFile(join(claudeDir, "schemas", name)),
      await Deno.readTextFile(join(ROOT, "schemas", source)),
      name,
    );
  }
  for (const example of ["task.json", "review-approve.json", "review-revise.json", "job.json"]) {
    assert.ok((await Deno.stat(join(claudeDir, "examples", example))).isFile, example);
  }
  // The seed's names, beside it, each pointing at it.
  const skills = join(env.dir, "home", ".claude", "skills");
  assert.deepEqual(claude.json.aliases, [join(skills, "spotworkers"), join(skills, "pi-delegate")]);
  const alias = await Deno.readTextFile(join(skills, "spotworkers", "SKILL.md"));
  assert.match(alias, /^name: spotworkers$/m);
  assert.ok(alias.includes("../spot/SKILL.md"));
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

Deno.test("skill install leaves an alias directory it did not write alone, and --dir writes nothing beside", async () => {
  const env = await spotEnv();
  env.env.HOME = join(env.dir, "home");
  const skills = join(env.dir, "home", ".claude", "skills");
  await Deno.mkdir(join(skills, "spotworkers"), { recursive: true });
  const theirs = "---\nname: spotworkers\n---\nthe user's own skill\n";
  await Deno.writeTextFile(join(skills, "spotworkers", "SKILL.md"), theirs);
  const r = await spot(env, env.dir, "skill", "install");
  assert.equal(r.code, 0, r.stderr);
  assert.equal(await Deno.readTextFile(join(skills, "spotworkers", "SKILL.md")), theirs);
  assert.deepEqual(r.json.aliasesSkipped, [join(skills, "spotworkers")]);
  assert.deepEqual(r.json.aliases, [join(skills, "pi-delegate")]);
  // A second install rewrites its own alias, and still leaves the user's.
  const again = await spot(env, env.dir, "skill", "install");
  assert.deepEqual(again.json.aliases, [join(skills, "pi-delegate")]);

  const dir = join(env.dir, "elsewhere", "spot");
  const chosen = await spot(env, env.dir, "skill", "install", "--dir", dir);
  assert.equal(chosen.json.installed, dir);
  assert.deepEqual(chosen.json.aliases, []);
  assert.equal(await Deno.stat(join(env.dir, "elsewhere", "pi-delegate")).catch(() => null), null);
  assert.ok((await Deno.stat(join(dir, "schemas", "task-contract.schema.json"))).isFile);
});
