import assert from "node:assert/strict";
import { join } from "node:path";
import { isSpotError } from "../errors.ts";
import { readConfig } from "./parse.ts";
import { migrateConfigText } from "./migrate.ts";

const FIXTURE = join(import.meta.dirname!, "..", "tests", "fixtures", "legacy", "config.json");

Deno.test("migrateConfigText() rewrites the original's config into one that loads without a warning", async () => {
  const text = await Deno.readTextFile(FIXTURE);
  const migrated = migrateConfigText("/c.json", text);
  assert.ok(migrated.text);
  assert.equal(migrated.changes.length, readConfig("/c.json", text).warnings.length);
  const after = readConfig("/c.json", migrated.text);
  assert.deepEqual(after.warnings, []);
  assert.deepEqual(after.config, readConfig("/c.json", text).config);
  for (
    const old of ["minimumPiVersion", "retryDelaysMs", "piTimeoutSeconds", "codexRateCard", "monthlyPlan"]
  ) {
    assert.ok(!migrated.text.includes(`"${old}"`), old);
  }
  assert.deepEqual(migrateConfigText("/c.json", migrated.text), { text: null, changes: [] });
  // Plain JSON stays plain JSON (no comma left behind), and a renamed key keeps its place.
  JSON.parse(migrated.text);
  const lineOf = (t: string, key: string) => t.split("\n").findIndex((l) => l.includes(`"${key}"`));
  const removed = ["minimumPiVersion", "retryDelaysMs"].filter((k) =>
    lineOf(text, k) < lineOf(text, "codexRateCard")
  );
  assert.equal(lineOf(migrated.text, "parentRateCard"), lineOf(text, "codexRateCard") - removed.length);
});

Deno.test("migrateConfigText() keeps comments away from the changed keys and creates missing parents", () => {
  const text = [
    "{",
    "  // my workers",
    '  "limits": { "piMaxTurns": 30 },',
    '  "profiles": {',
    "    /* the cheap one */",
    '    "q": { "adapter": "qoder", "provider": "qoder", "model": "m" },',
    "  },",
    "}",
    "",
  ].join("\n");
  const migrated = migrateConfigText("/c.json", text).text!;
  assert.match(migrated, /\/\/ my workers/);
  assert.match(migrated, /\/\* the cheap one \*\//);
  const { config, warnings } = readConfig("/c.json", migrated);
  assert.deepEqual(warnings, []);
  assert.equal(config.profiles.q.limits?.maxTurns, 30);
});

Deno.test("migrateConfigText() refuses a config that is invalid even with its legacy keys mapped", () => {
  assert.throws(
    () => migrateConfigText("/c.json", '{\n  "minimumPiVersion": "1.0.0",\n  "maxConcurrentRuns": 99\n}\n'),
    (e) => isSpotError(e, "CONFIG_INVALID") && /\/c\.json:3:3 maxConcurrentRuns/.test(e.message),
  );
});
