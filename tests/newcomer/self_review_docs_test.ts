/**
 * docs/self-review.md holds the self-review's rules as spot applies them: every skip reason `self-review` can
 * give, the thresholds at their defaults, and JSON examples that the schemas accept. A newcomer met
 * "review-surface-too-small" with no doc saying what the surface is or where 4000 comes from.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { ROOT } from "../helpers.ts";
import { Config } from "../../schemas/config.ts";
import { SelfReview } from "../../schemas/self_review.ts";
import { ReviewResult } from "../../schemas/review_result.ts";

const DOC = await Deno.readTextFile(join(ROOT, "docs", "self-review.md"));

Deno.test("docs/self-review.md names every reason self-review skips, and the thresholds' defaults", async () => {
  const verb = await Deno.readTextFile(join(ROOT, "verbs", "self_review.ts"));
  const reasons = [...verb.matchAll(/skip\("([a-z-]+)"\)/g)].map((m) => m[1]);
  assert.ok(reasons.length >= 8, reasons.join());
  for (const reason of reasons) assert.ok(DOC.includes(`| \`${reason}\``), `the doc's table lacks ${reason}`);
  const defaults = Config.parse({}).selfReview;
  assert.match(DOC, new RegExp(`minDiffBytes\` bytes \\(default ${defaults.minDiffBytes}\\)`));
  assert.match(DOC, new RegExp(`minSurfaceBytes\` \\(default ${defaults.minSurfaceBytes}\\)`));
});

Deno.test("docs/self-review.md's self-review.json, review.json and episode examples are what spot accepts", () => {
  const blocks = [...DOC.matchAll(/```(json|jsonl)\n([\s\S]*?)```/g)];
  const json = blocks.filter((b) => b[1] === "json").map((b) => JSON.parse(b[2]));
  assert.equal(json.length, 2);
  SelfReview.parse(json[0]);
  ReviewResult.parse(json[1]);
  const episode = blocks.find((b) => b[1] === "jsonl")![2].trim().split("\n").map((l) => JSON.parse(l));
  const answer = episode.find((l) => l.phase === "self-review");
  const filled = answer.text.replaceAll("{{runId}}", "r").replaceAll("{{diffSha256}}", "a".repeat(64));
  SelfReview.parse(JSON.parse(filled));
});
