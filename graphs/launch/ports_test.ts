import assert from "node:assert/strict";
import { allocatePorts, PORT_BLOCK, workspaceEnv } from "./ports.ts";

Deno.test("allocatePorts() gives stable, distinct blocks and skips held ones and ports in use", async () => {
  const a = (await allocatePorts("job-1", "api", []))!;
  assert.equal(a.count, PORT_BLOCK);
  assert.equal((await allocatePorts("job-1", "api", []))!.base, a.base, "stable across a resume");
  const other = (await allocatePorts("job-1", "api", [a.base]))!;
  assert.notEqual(other.base, a.base, "a block the job's running task holds is skipped");
  // Something listening inside the block: the block is skipped.
  const listener = Deno.listen({ hostname: "127.0.0.1", port: a.base + 3 });
  try {
    assert.notEqual((await allocatePorts("job-1", "api", []))!.base, a.base);
  } finally {
    listener.close();
  }
});

Deno.test("workspaceEnv() names a compose project per task and passes the block", () => {
  assert.deepEqual(workspaceEnv("job-20260101-000000-AbC", "ui", { base: 20010, count: 10 }), {
    COMPOSE_PROJECT_NAME: "spot-job-20260101-000000-abc-ui",
    SPOT_PORT_BASE: "20010",
    SPOT_PORT_COUNT: "10",
    PORT: "20010",
  });
  assert.deepEqual(workspaceEnv("job-1", "ui", null), { COMPOSE_PROJECT_NAME: "spot-job-1-ui" });
});
