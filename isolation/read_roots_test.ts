import assert from "node:assert/strict";
import { join } from "node:path";
import { isSpotError } from "../errors.ts";
import type { HostFacts } from "./host_facts.ts";
import { vetPlanPaths, vetProfileRoots } from "./read_roots.ts";

async function world() {
  const home = await Deno.realPath(await Deno.makeTempDir({ prefix: "spot-readroots-" }));
  const dirs = { runtime: join(home, ".rt", "v1"), creds: join(home, ".tool"), state: join(home, "state") };
  for (const d of Object.values(dirs)) await Deno.mkdir(d, { recursive: true });
  await Deno.writeTextFile(join(dirs.creds, "credentials.toml"), "token = 'x'\n");
  await Deno.writeTextFile(join(home, "episode.jsonl"), "{}\n");
  const host = { home, keepOut: [home, dirs.state] } as unknown as HostFacts;
  return { home, dirs, host };
}

Deno.test("vetProfileRoots() shows a named runtime under HOME, by ~/ or absolute path", async () => {
  const w = await world();
  assert.deepEqual(vetProfileRoots(["~/.rt/v1", w.dirs.runtime], w.host), [w.dirs.runtime, w.dirs.runtime]);
  assert.deepEqual(vetProfileRoots(undefined, w.host), []);
  await Deno.remove(w.home, { recursive: true });
});

Deno.test("vetProfileRoots() refuses a root that holds a credential, shows all of HOME or spot's state, or is missing", async () => {
  const w = await world();
  for (const bad of ["~/.tool", "~/", w.home, "~/state", join(w.dirs.state, "x"), "~/nope", "/"]) {
    assert.throws(() => vetProfileRoots([bad], w.host), (e) => isSpotError(e, "CONFIG_INVALID"), bad);
  }
  await Deno.remove(w.home, { recursive: true });
});

Deno.test("vetPlanPaths() keeps files the command line names anywhere, and no directory under HOME", async () => {
  const w = await world();
  const kept = vetPlanPaths([join(w.home, "episode.jsonl"), w.dirs.runtime, "/usr/share"], w.home);
  assert.deepEqual(kept, [join(w.home, "episode.jsonl"), "/usr/share"]);
  await Deno.remove(w.home, { recursive: true });
});
