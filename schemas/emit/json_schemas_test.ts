import assert from "node:assert/strict";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { renderJsonSchemas } from "./json_schemas.ts";

const here = dirname(dirname(fileURLToPath(import.meta.url)));

Deno.test("the committed JSON Schema files match the zod schemas (run `deno task schemas` if not)", async () => {
  for (const [name, text] of Object.entries(renderJsonSchemas())) {
    const committed = await Deno.readTextFile(join(here, name)).catch(() => "(missing)");
    assert.equal(committed, text, `schemas/${name} is stale`);
  }
});

Deno.test("the task contract schema refuses unknown keys", () => {
  const schema = JSON.parse(renderJsonSchemas()["task-contract.schema.json"]);
  assert.equal(schema.additionalProperties, false);
  assert.ok(schema.required.includes("goal"));
});

Deno.test("the job and job task schemas refuse unknown keys, down to a task", () => {
  const job = JSON.parse(renderJsonSchemas()["job/job.schema.json"]);
  assert.equal(job.additionalProperties, false);
  assert.equal(job.properties.tasks.items.additionalProperties, false);
  const task = JSON.parse(renderJsonSchemas()["job/job-task.schema.json"]);
  assert.deepEqual(task.required.sort(), ["acceptance", "id", "role", "task"]);
});
