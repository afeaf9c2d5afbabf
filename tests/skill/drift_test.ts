/** The skill cannot drift from the CLI: what it names exists, and the check catches a renamed command. */
import assert from "node:assert/strict";
import { join } from "node:path";
import { ROOT } from "../helpers.ts";
import { skillProblems } from "./drift.ts";

const FILES = [
  "skill/SKILL.md",
  "skill/references/scope.md",
  "skill/references/review-policy.md",
  "skill/references/credentials.md",
  "skill/references/providers.md",
  "skill/references/agents.md",
  "skill/references/jobs.md",
];

/** The text of every source file: where a variable spot reads is named in quotes, a constant declared. */
async function sourceText(dir = ROOT): Promise<string> {
  const parts: string[] = [];
  for await (const e of Deno.readDir(dir)) {
    const path = join(dir, e.name);
    if (e.isDirectory && ![".git", ".workers", "tests", "node_modules", "bench"].includes(e.name)) {
      parts.push(await sourceText(path));
    } else if (e.isFile && e.name.endsWith(".ts") && !e.name.endsWith("_test.ts")) {
      parts.push(await Deno.readTextFile(path));
    }
  }
  return parts.join("\n");
}

Deno.test("every command, flag, error code, config key and variable the skill names exists", async () => {
  const source = await sourceText();
  const problems: string[] = [];
  for (const file of FILES) {
    problems.push(...skillProblems(await Deno.readTextFile(join(ROOT, file)), file, source));
  }
  assert.deepEqual(problems, []);
});

Deno.test("the drift check fails on a renamed command, flag, code or config key", async () => {
  const source = await sourceText();
  const skill = await Deno.readTextFile(join(ROOT, "skill", "SKILL.md"));
  assert.ok(skill.includes("spot verify --id RUN"), "the skill names spot verify");
  const renamed = skill.replaceAll("spot verify", "spot check");
  assert.ok(skillProblems(renamed, "SKILL.md", source).some((p) => p.includes('"spot check" is no command')));
  const flag = skill.replace("--usage-start", "--usage-begin");
  assert.ok(skillProblems(flag, "SKILL.md", source).some((p) => p.includes("--usage-begin")));
  const code = skill.replace("(`DIFF_CHANGED`)", "(`DIFF_MOVED`)");
  assert.ok(skillProblems(code, "SKILL.md", source).some((p) => p.includes("DIFF_MOVED")));
  const key = skill.replace("`limits.maxChangedFiles`", "`limits.maxFiles`");
  assert.ok(skillProblems(key, "SKILL.md", source).some((p) => p.includes("limits.maxFiles")));
  const sub = skill.replace("spot agent watch RUN", "spot agent follow RUN");
  assert.ok(skillProblems(sub, "SKILL.md", source).some((p) => p.includes('"spot agent follow"')));
});
