/**
 * What the skill hands a parent to copy is right: the examples and every JSON block validate with spot's own
 * checks, every file it names is shipped beside it, the field names it teaches are the schemas', the schemas
 * beside it are the generated ones, and it answers to the seed's names.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { checkReviewResult, checkTaskContract } from "../../api/check.ts";
import { parseJob } from "../../graphs/load.ts";
import { renderJsonSchemas, SKILL_SCHEMAS } from "../../schemas/emit/json_schemas.ts";
import { ROOT } from "../helpers.ts";
import { keyProblems } from "./keys.ts";

const SKILL = join(ROOT, "skill");
/** Written by the verb table (cli/), whose own test holds it to the commands; the skill only links to it. */
const GENERATED = new Set(["references/commands.md"]);

const read = (rel: string) => Deno.readTextFile(join(SKILL, rel));

async function markdownFiles(): Promise<string[]> {
  const out = ["SKILL.md"];
  for await (const e of Deno.readDir(join(SKILL, "references"))) {
    if (e.name.endsWith(".md")) out.push(`references/${e.name}`);
  }
  return out.sort();
}

/** A JSON text checked by what it is: a review, a job, or a contract. */
async function validate(text: string, file: string): Promise<void> {
  const value = JSON.parse(text);
  if ("verdict" in value) await checkReviewResult(text, file);
  else if ("tasks" in value) await parseJob(text, file);
  else await checkTaskContract(text, file);
}

Deno.test("the example contract, reviews and job validate with spot's own checks", async () => {
  const contract = await checkTaskContract(await read("examples/task.json"), "task.json");
  assert.equal(contract.schemaVersion, 1);
  assert.equal((await checkReviewResult(await read("examples/review-approve.json"))).verdict, "approve");
  assert.equal((await checkReviewResult(await read("examples/review-revise.json"))).verdict, "revise");
  const job = await parseJob(await read("examples/job.json"), "job.json");
  assert.deepEqual(job.tasks.map((t) => t.role), ["scout", "builder", "reviewer"]);
});

Deno.test("every JSON block in the skill validates as the contract, review or job it is", async () => {
  let seen = 0;
  for (const file of await markdownFiles()) {
    const text = await read(file);
    for (const m of text.matchAll(/```json\n([\s\S]*?)```/g)) {
      await validate(m[1], file);
      seen++;
    }
  }
  assert.ok(seen > 0, "the review policy shows a review");
});

Deno.test("every schema, example and reference the skill names is shipped beside it", async () => {
  const missing: string[] = [];
  for (const file of await markdownFiles()) {
    const text = await read(file);
    for (const m of text.matchAll(/`((?:schemas|examples|references)\/[A-Za-z0-9._/-]+)`/g)) {
      if (GENERATED.has(m[1])) continue;
      if (!(await Deno.stat(join(SKILL, m[1])).catch(() => null))) missing.push(`${file}: ${m[1]}`);
    }
  }
  assert.deepEqual(missing, []);
});

Deno.test("the contract and review keys the skill teaches are the schemas' own, all of them", async () => {
  const contract = JSON.parse(await read("schemas/task-contract.schema.json"));
  const review = JSON.parse(await read("schemas/review-result.schema.json"));
  const skill = await read("SKILL.md");
  const policy = await read("references/review-policy.md");
  assert.deepEqual([
    ...keyProblems(skill, "SKILL.md", "task-contract.schema.json", contract, { complete: true }),
    ...keyProblems(skill, "SKILL.md", "review-result.schema.json", review, { complete: true }),
    ...keyProblems(policy, "review-policy.md", "review-result.schema.json", review, { complete: true }),
  ], []);
  const job = JSON.parse(await read("schemas/job.schema.json"));
  const jobs = await read("references/jobs.md");
  assert.deepEqual(keyProblems(jobs, "jobs.md", "job.schema.json", job, { complete: false }), []);
});

Deno.test("the key check catches a field the schema does not have, and one the text leaves out", async () => {
  const review = JSON.parse(await read("schemas/review-result.schema.json"));
  const contract = JSON.parse(await read("schemas/task-contract.schema.json"));
  const old = "Revise with findings (`severity` P0-P3, `file`, `line`), see `review-result.schema.json`.";
  assert.ok(
    keyProblems(old, "old", "review-result.schema.json", review, { complete: false })
      .some((p) => p.includes('"severity"')),
  );
  const skill = (await read("SKILL.md")).replace("`schemaVersion` (always 1), ", "");
  assert.ok(
    keyProblems(skill, "SKILL.md", "task-contract.schema.json", contract, { complete: true })
      .some((p) => p.includes('leaves out "schemaVersion"')),
  );
});

Deno.test("the schemas beside the skill are the generated ones (deno task schemas writes both)", async () => {
  const rendered = renderJsonSchemas();
  for (const [name, source] of Object.entries(SKILL_SCHEMAS)) {
    assert.equal(await read(`schemas/${name}`), rendered[source], `skill/schemas/${name} is stale`);
  }
  const shipped = [...Deno.readDirSync(join(SKILL, "schemas"))].map((e) => e.name).sort();
  assert.deepEqual(shipped, Object.keys(SKILL_SCHEMAS).sort());
});

Deno.test("the skill answers to the seed's names: spotworkers, $spotworkers, $pi-delegate", async () => {
  const head = (await read("SKILL.md")).split("---")[1];
  assert.match(head, /^name: spot$/m);
  for (const alias of ["spotworkers", "$spotworkers", "$pi-delegate"]) {
    assert.ok(head.includes(alias), `the description names ${alias}`);
  }
});
