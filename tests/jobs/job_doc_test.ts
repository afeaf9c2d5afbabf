/**
 * docs/jobs.md runs as written: its section "A job that runs as written" is read from the markdown, its shell
 * setup run, each captioned file written where the caption says, and its commands run one by one through the
 * CLI, offline with the replay worker. Every placeholder its episodes use must be documented beside them.
 */
import assert from "node:assert/strict";
import { dirname, join } from "node:path";
import { ROOT, sh, spot } from "../helpers.ts";
import { setup } from "./helpers.ts";

const SECTION = "## A job that runs as written";

interface Block {
  /** The file a caption names (`` `../job.json`: ``), or null for a block to run. */
  file: string | null;
  lang: string;
  text: string;
}

/** The section's fenced blocks, in order, each with the caption just above it. */
function blocks(markdown: string): { prose: string; blocks: Block[] } {
  const start = markdown.indexOf(SECTION);
  assert.ok(start >= 0, `docs/jobs.md has no "${SECTION}"`);
  const rest = markdown.slice(start + SECTION.length);
  const end = rest.search(/^## /m);
  const section = end < 0 ? rest : rest.slice(0, end);
  const out: Block[] = [];
  const fence = /^(?:`([^`\n]+)`[^\n]*:\n\n)?(`{3,})(\w*)\n([\s\S]*?)\n\2$/gm;
  for (const m of section.matchAll(fence)) out.push({ file: m[1] ?? null, lang: m[3], text: m[4] });
  return { prose: section.replace(fence, ""), blocks: out };
}

Deno.test("docs/jobs.md: the job in it runs as written with the replay worker, and lands both builders", async () => {
  const { prose, blocks: found } = blocks(await Deno.readTextFile(join(ROOT, "docs", "jobs.md")));
  const scripts = found.filter((b) => b.file === null && b.lang === "sh");
  const files = found.filter((b) => b.file !== null);
  assert.equal(scripts.length, 2, "a setup script and the commands");
  assert.ok(files.some((f) => f.file!.endsWith("job.json")) && files.length >= 2);

  // Every placeholder an episode uses is one the section explains.
  for (const f of files) {
    for (const m of f.text.matchAll(/\{\{([a-zA-Z]+)/g)) {
      assert.ok(prose.includes(`{{${m[1]}`), `the placeholder {{${m[1]}...}} of ${f.file} is not documented`);
    }
  }

  const { env } = await setup();
  const work = join(env.dir, "docs-demo");
  await Deno.mkdir(work);
  await sh(work, "sh", "-e", "-c", scripts[0].text);
  const repo = join(work, "demo");
  for (const f of files) {
    const path = join(repo, f.file!);
    await Deno.mkdir(dirname(path), { recursive: true });
    await Deno.writeTextFile(path, f.text + "\n");
  }

  let jobId = "";
  for (const line of scripts[1].text.split("\n").map((l) => l.replace(/#.*$/, "").trim()).filter(Boolean)) {
    const [program, ...args] = line.replaceAll("JOB", jobId).split(/\s+/);
    if (program === "git") {
      // The two builders' commits, the last landed first.
      assert.match(await sh(repo, "git", ...args), /^ui: Set y to 2.*\napi: Set x to 2/);
      continue;
    }
    assert.equal(program, "spot", line);
    const r = await spot(env, repo, ...args);
    assert.equal(r.code, 0, `${line}\n${r.stdout}${r.stderr}`);
    if (args[1] === "init") jobId = String(r.json.jobId);
  }
  assert.equal(await Deno.readTextFile(join(repo, "api/x.ts")), "export const x = 2;\n");
  assert.equal(await Deno.readTextFile(join(repo, "ui/y.ts")), "export const y = 2;\n");
  await Deno.remove(env.dir, { recursive: true });
});
