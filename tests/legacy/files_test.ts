/** The original's task contract and review result files are accepted as they are. */
import assert from "node:assert/strict";
import { join } from "node:path";
import { readContract } from "../../config/contract_load.ts";
import { parseConfig } from "../../config/parse.ts";
import { readReview } from "../../config/review_load.ts";
import { isSpotError } from "../../errors.ts";
import { writeJson } from "../helpers.ts";

const SHA = "9".repeat(64);

/** Exactly the original's contract: all twelve keys it required, written the way its docs show them. */
const CONTRACT = {
  schemaVersion: 1,
  runId: "pw-checkout-docs",
  repositoryRoot: "/home/dev/shop",
  baseRevision: "5".repeat(40),
  goal: "Document the checkout flow in README.md",
  allowedPaths: ["README.md", "docs/**"],
  forbiddenPaths: ["src/**"],
  constraints: ["English only"],
  acceptanceCriteria: ["README.md has a Checkout section", "docs/checkout.md links back to it"],
  verification: [
    { argv: ["node", "scripts/check-docs.mjs"], timeoutSeconds: 60, env: { NODE_ENV: "test" } },
    { argv: ["npm", "test"], timeoutSeconds: 600 },
  ],
  requiredCapabilities: ["text", "code"],
  risk: "medium",
  domain: "docs",
};

const FINDING = {
  priority: "P1",
  file: "README.md",
  line: null,
  problem: "The section names a flag that does not exist",
  evidence: "README.md says --express; the CLI has no such flag",
  requiredChange: "Describe the flags the CLI has",
};

Deno.test("an original task contract is accepted as it is, defaults filled where spot added keys", async () => {
  const dir = await Deno.makeTempDir({ prefix: "spot-legacy-files-" });
  const file = join(dir, "task.json");
  await writeJson(file, CONTRACT);
  const config = parseConfig("/c.json", "{}");
  const task = await readContract(file, config);
  assert.equal(task.runId, "pw-checkout-docs");
  assert.equal(task.repositoryRoot, "/home/dev/shop");
  assert.deepEqual(task.forbiddenPaths, ["src/**"]);
  assert.deepEqual(task.lockedPaths, []);
  assert.equal(task.difficulty, undefined);
  assert.deepEqual(task.verification[0].env, { NODE_ENV: "test" });
  // spot's validation still holds: the original refused an unknown key, and so does spot.
  await writeJson(file, { ...CONTRACT, priority: "high" });
  await assert.rejects(() => readContract(file, config), (e) => isSpotError(e, "CONTRACT_INVALID"));
  await Deno.remove(dir, { recursive: true });
});

Deno.test("original review results, approve and revise, are accepted as they are", async () => {
  const dir = await Deno.makeTempDir({ prefix: "spot-legacy-files-" });
  const base = { schemaVersion: 1, diffSha256: SHA, summary: "read the whole diff" };
  await writeJson(join(dir, "revise.json"), {
    ...base,
    verdict: "revise",
    findings: [FINDING],
    verificationGaps: ["No check runs the docs script on Windows"],
  });
  const revise = await readReview(dir, "revise.json");
  assert.equal(revise.verdict, "revise");
  assert.deepEqual(revise.findings, [FINDING]);
  await writeJson(join(dir, "approve.json"), {
    ...base,
    verdict: "approve",
    findings: [{ ...FINDING, priority: "P3", line: 12 }],
    verificationGaps: [],
  });
  assert.equal((await readReview(dir, "approve.json")).verdict, "approve");
  // The gate the original had stays: no approve over a P0-P2 finding.
  await writeJson(join(dir, "bad.json"), {
    ...base,
    verdict: "approve",
    findings: [FINDING],
    verificationGaps: [],
  });
  await assert.rejects(() => readReview(dir, "bad.json"), (e) => isSpotError(e, "REVIEW_INVALID"));
  await Deno.remove(dir, { recursive: true });
});
