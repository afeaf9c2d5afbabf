import assert from "node:assert/strict";
import { join } from "node:path";
import { isSpotError } from "../errors.ts";
import type { RunState } from "../schemas/run_state.ts";
import { readBaseline, writeBaseline } from "./baseline.ts";
import { resolvePaths } from "./paths.ts";
import { RunStore } from "./run_store.ts";

async function store(): Promise<{ store: RunStore; dir: string }> {
  const dir = await Deno.makeTempDir({ prefix: "spot-baseline-" });
  const s = new RunStore(resolvePaths((n) => ({ PI_WORKER_STATE_DIR: dir, HOME: dir })[n]));
  await Deno.mkdir(s.dir("run-1"), { recursive: true });
  return { store: s, dir };
}

const stateWith = (baselines?: Record<string, string>) => ({ runId: "run-1", baselines }) as RunState;

Deno.test("readBaseline() returns a baseline whose hash matches the one recorded at prepare", async () => {
  const { store: s, dir } = await store();
  const sha = await writeBaseline(s, "run-1", "locked.json", { files: [1, 2] });
  assert.deepEqual(await readBaseline(s, stateWith({ "locked.json": sha }), "locked.json"), {
    files: [1, 2],
  });
  await Deno.remove(dir, { recursive: true });
});

Deno.test("readBaseline() refuses a missing, rewritten or unreadable baseline with STATE_INVALID", async () => {
  const { store: s, dir } = await store();
  const sha = await writeBaseline(s, "run-1", "escape.json", { files: {} });
  const state = stateWith({ "escape.json": sha });
  await Deno.writeTextFile(join(s.dir("run-1"), "escape.json"), '{ "files": {} }\n');
  await assert.rejects(readBaseline(s, state, "escape.json"), (e) => isSpotError(e, "STATE_INVALID"));
  await Deno.remove(join(s.dir("run-1"), "escape.json"));
  await assert.rejects(
    readBaseline(s, state, "escape.json"),
    (e) => isSpotError(e, "STATE_INVALID") && /is missing/.test((e as Error).message),
  );
  await Deno.writeTextFile(join(s.dir("run-1"), "locked.json"), "{not json");
  await assert.rejects(readBaseline(s, stateWith(), "locked.json"), (e) => isSpotError(e, "STATE_INVALID"));
  await Deno.remove(dir, { recursive: true });
});

Deno.test("readBaseline() still needs the file for a run prepared before hashes were recorded", async () => {
  const { store: s, dir } = await store();
  await writeBaseline(s, "run-1", "locked.json", { files: [] });
  assert.deepEqual(await readBaseline(s, stateWith(), "locked.json"), { files: [] });
  await Deno.remove(join(s.dir("run-1"), "locked.json"));
  await assert.rejects(readBaseline(s, stateWith(), "locked.json"), (e) => isSpotError(e, "STATE_INVALID"));
  await Deno.remove(dir, { recursive: true });
});
