/**
 * What README.md shows a newcomer is what spot does: its verify example names only fields verify prints, and
 * its loop's doctor line offers `--model`, which the replay worker needs. A newcomer found `"reviewTier"` in
 * the example (verify has no tier) and no `--model` on doctor's line.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { ROOT, spot, spotEnv } from "../helpers.ts";

const README = await Deno.readTextFile(join(ROOT, "README.md"));

Deno.test("README's verify example names only fields a real verify prints", async () => {
  const example = /`(\{"ok":true,"command":"verify"[^`]*)`/.exec(README.replaceAll("\n", ""));
  assert.ok(example, "README shows verify's JSON");
  const keys = [...example[1].matchAll(/"(\w+)":/g)].map((m) => m[1]);
  assert.ok(keys.length >= 4, keys.join());
  // The golden file is held to verify's real piped output by tests/output/golden_test.ts.
  const golden = JSON.parse(
    await Deno.readTextFile(join(ROOT, "tests", "fixtures", "golden", "json", "04-verify.json")),
  );
  for (const key of keys) assert.ok(key in golden, `README's verify example names "${key}", verify has none`);
});

Deno.test("README's doctor line offers the options doctor takes that a replay run needs", async () => {
  const line = README.split("\n").find((l) => l.startsWith("spot doctor "));
  assert.ok(line, "README lists doctor in the loop");
  const env = await spotEnv();
  const help = await spot(env, env.dir, "doctor", "--help");
  for (const flag of ["--task", "--profile", "--model"]) {
    assert.ok(help.stdout.includes(flag), `doctor takes ${flag}`);
    assert.ok(line.includes(flag), `README's doctor line shows ${flag}: ${line}`);
  }
  await Deno.remove(env.dir, { recursive: true });
});
