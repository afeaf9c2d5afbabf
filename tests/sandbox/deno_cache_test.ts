/**
 * The replay worker runs with Deno inside the sandbox, where Deno's cache is read-only: compiled there, it
 * would be compiled again on every turn. spot compiles it outside first (worker/deno_warm.ts).
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { denoDir } from "../../isolation/step_runner.ts";
import { ROOT } from "../helpers.ts";
import { episode, exists, lab } from "./harness.ts";

// Deno 2 keeps a compiled module as gen/file/<its path>.js in its cache.
const compiled = join(denoDir((n) => Deno.env.get(n)), "gen", "file", ROOT, "replay", "replay_worker.ts.js");

for (const backend of ["bwrap", "none"] as const) {
  Deno.test(`a replay turn under ${backend} leaves the replay worker compiled in the Deno cache`, async () => {
    const l = await lab();
    try {
      // Another test's turn may compile it again meanwhile: that can hide a miss here, never invent one.
      await Deno.remove(compiled).catch(() => {});
      const e = await episode(l, backend, [{ op: "write", path: "a.txt", content: "a\n" }]);
      assert.equal(e.run.code, 0, e.run.stderr);
      assert.ok(exists(compiled), `${compiled} is missing after a ${backend} turn`);
      // Under bwrap spot compiled it outside the sandbox and left a stamp; unconfined, Deno did it itself.
      const stamps = join(l.env.env.PI_WORKER_CACHE_DIR, "deno-warm");
      const names = exists(stamps) ? [...Deno.readDirSync(stamps)].map((s) => s.name) : [];
      assert.equal(names.length, backend === "bwrap" ? 1 : 0, `stamps: ${names}`);
      if (backend === "bwrap") {
        assert.match(await Deno.readTextFile(join(stamps, names[0])), /replay\/replay_worker\.ts/);
      }
    } finally {
      await l.cleanup();
    }
  });
}
