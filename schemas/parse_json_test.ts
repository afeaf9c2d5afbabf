import assert from "node:assert/strict";
import { z } from "zod";
import { parseWithSchema } from "./locate.ts";
import { hasRepeatedKey, parseJsonWithSchema } from "./parse_json.ts";
import { TaskContract } from "./task_contract.ts";

/** Objects and arrays a few levels deep whose keys and strings hold the characters the scanner counts. */
function docs(): string[] {
  const keys = ['"a"', '"b"', '"\\u0061"', '"{"', '":"', '","', '"\\""', '"\\\\"', '"[]"'];
  const values = ["1", "-0", '"x,y:{}"', '"\\"}"', "[]", "{}", "null", '[{"a":1},{"a":2}]'];
  const out: string[] = [];
  for (const k1 of keys) {
    for (const k2 of keys) {
      for (const v of values) {
        out.push(`{${k1}:${v},${k2}:${v}}`);
        out.push(`{"o":{${k1}:${v}},${k2}:[${v},{${k1}:${v},${k2}:1}]}`);
        out.push(` [ { ${k1} : { ${k2} : ${v} } , ${k2} : ${v} } ] `);
      }
    }
  }
  return out;
}

Deno.test("hasRepeatedKey finds exactly the repeated keys jsonc-parser finds", () => {
  const all = docs();
  let repeated = 0;
  for (const text of all) {
    JSON.parse(text);
    const careful = parseWithSchema(text, z.unknown());
    const expected = !careful.ok && careful.issues.some((i) => i.message.startsWith("duplicate key"));
    assert.equal(hasRepeatedKey(text), expected, text);
    if (expected) repeated++;
  }
  assert.ok(repeated > 50 && repeated < all.length - 50, `${repeated} of ${all.length} repeat a key`);
});

const CONTRACT = {
  schemaVersion: 1,
  goal: "Make the sum function add",
  allowedPaths: ["src/**"],
  acceptanceCriteria: ["sum adds"],
  verification: [{ argv: ["node", "-e", "0"], timeoutSeconds: 30 }],
  risk: "low",
};

Deno.test("parseJsonWithSchema gives parseWithSchema's result for good, bad, repeated and commented texts", async () => {
  const texts = [
    JSON.stringify(CONTRACT, null, 2),
    JSON.stringify({ ...CONTRACT, goal: "short" }, null, 2),
    JSON.stringify({ ...CONTRACT, extra: -0 }),
    JSON.stringify(CONTRACT).replace('"risk":"low"', '"risk":"low","risk":"high"'),
    `// a comment\n${JSON.stringify(CONTRACT)}`,
    JSON.stringify(CONTRACT).replace("}", ",}"),
    "",
    "[]",
  ];
  for (const text of texts) {
    assert.deepStrictEqual(
      await parseJsonWithSchema(text, TaskContract),
      parseWithSchema(text, TaskContract),
      text,
    );
  }
  const good = await parseJsonWithSchema(JSON.stringify(CONTRACT), TaskContract);
  assert.equal(good.ok, true);
  const repeated = await parseJsonWithSchema(texts[3], TaskContract);
  assert.equal(repeated.ok, false, "a repeated key must never pass: which risk did the author mean?");
});
