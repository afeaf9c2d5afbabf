import assert from "node:assert/strict";
import { sessionSupport } from "./sessions.ts";

Deno.test("sessionSupport() resumes pi and replay, and says why each other CLI cannot", () => {
  assert.deepEqual(sessionSupport("pi"), { resumes: true });
  assert.deepEqual(sessionSupport("replay"), { resumes: true });
  for (const cli of ["claude", "codex", "opencode", "kilo", "gemini", "qwen", "kimi", "trae", "zcode"]) {
    const s = sessionSupport(cli);
    assert.equal(s.resumes, false, cli);
    assert.ok(!s.resumes && s.why.length > 20, cli);
  }
  assert.match((sessionSupport("claude") as { why: string }).why, /no-session-persistence/);
});
