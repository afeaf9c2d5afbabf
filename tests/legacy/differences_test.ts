/**
 * The differences docs/migration.md writes down, held to the code: where spot keeps the original's spelling
 * beside its own (a scan issue's `path` beside `file`), a parent written for the original still finds it,
 * through the CLI with the original's config and contract; and every error code the original emitted is
 * either one of spot's or mapped in migration.md's table.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { ERROR_CODES } from "../../errors.ts";
import { ROOT, spot, spotEnv, writeEpisode, writeJson } from "../helpers.ts";
import { demoScenario, FIXED_ADD } from "../scenario.ts";
import { LEGACY_CONFIG, originalContract } from "./fixtures.ts";

/** The codes the original pi-worker's CLI emitted (shared/reference/seed-systems.md, A2). */
const ORIGINAL_CODES = [
  "CLI_USAGE",
  "CONFIG_INVALID",
  "CONTRACT_INVALID",
  "REVIEW_INVALID",
  "SELF_REVIEW_INVALID",
  "STATE_INVALID",
  "RUN_EXISTS",
  "RUN_NOT_FOUND",
  "RUN_LOCKED",
  "CONCURRENCY_LIMIT",
  "NO_ROUTABLE_PROFILE",
  "HIGH_RISK_BLOCKED",
  "CAPABILITY_MISMATCH",
  "DOCTOR_FAILED",
  "PREPARE_FAILED",
  "BASE_REVISION_MISMATCH",
  "GIT_FAILED",
  "GIT_OUTPUT_LIMIT",
  "FINGERPRINT_INCOMPLETE",
  "SYMLINK_ESCAPE",
  "PI_FAILED",
  "PI_TIMEOUT",
  "PI_INTERRUPTED",
  "SECURITY_BLOCKED",
  "VERIFICATION_INTERRUPTED",
  "VERIFICATION_OUTPUT_TRUNCATED",
  "DIFF_CHANGED",
  "REVIEW_GATE",
  "SOURCE_CHANGED",
  "REVISION_LIMIT",
  "POST_INTEGRATE_VERIFY_FAILED",
  "INTEGRATION_RECOVERY_FAILED",
  "NOT_IMPLEMENTED",
  "INTERNAL",
];

Deno.test("every error code the original emitted is spot's too, or mapped in docs/migration.md", async () => {
  const doc = await Deno.readTextFile(join(ROOT, "docs", "migration.md"));
  const table = doc.slice(doc.indexOf("### Error codes"), doc.indexOf("## Other differences"));
  const unmapped = ORIGINAL_CODES.filter((code) =>
    !(code in ERROR_CODES) && !table.includes(`| \`${code}\``)
  );
  assert.deepEqual(unmapped, []);
});

Deno.test("a blocked scan names each issue's file as `file` and, as the original did, `path`", async () => {
  const env = await spotEnv();
  try {
    await Deno.copyFile(LEGACY_CONFIG, env.configFile);
    const sc = await demoScenario(env.dir);
    await writeEpisode(sc.episodeFile, [
      { op: "write", path: "add.ts", content: FIXED_ADD },
      { op: "write", path: "README.md", content: "# changed outside the allowlist\n" },
    ]);
    const id = "pw-differences-1";
    await writeJson(sc.taskFile, await originalContract(sc.repo, id));
    const prepare = await spot(
      env,
      sc.repo,
      "prepare",
      "--task",
      sc.taskFile,
      "--profile",
      "replay",
      "--model",
      sc.episodeFile,
    );
    assert.equal(prepare.code, 0, prepare.stderr);
    assert.equal((await spot(env, sc.repo, "run", "--id", id)).code, 0);
    const verify = await spot(env, sc.repo, "verify", "--id", id);
    assert.equal(verify.code, 4, verify.stderr);
    const lines = verify.stderr.trim().split("\n");
    assert.equal(lines.length, 1, "one JSON object on stderr");
    const error = JSON.parse(lines[0]).error as {
      code: string;
      details: { issues: Record<string, unknown>[] };
    };
    assert.equal(error.code, "SECURITY_BLOCKED");
    const verification = JSON.parse(
      await Deno.readTextFile(join(env.stateDir, "runs", id, "verification.json")),
    );
    const both: Record<string, unknown>[][] = [error.details.issues, verification.security.issues];
    for (const issues of both) {
      const scope = issues.find((i) => i.code === "PATH_OUT_OF_SCOPE");
      assert.deepEqual([scope?.file, scope?.path], ["README.md", "README.md"]);
    }
  } finally {
    await Deno.remove(env.dir, { recursive: true });
  }
});
