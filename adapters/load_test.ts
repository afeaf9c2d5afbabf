import assert from "node:assert/strict";
import { LOADABLE_ADAPTERS, loadAdapter } from "./load.ts";
import { getAdapter, KNOWN_ADAPTER_NAMES } from "./mod.ts";

Deno.test("loadAdapter() gives the same adapter as the full table, for every name and no other", async () => {
  assert.deepEqual([...LOADABLE_ADAPTERS].sort(), [...KNOWN_ADAPTER_NAMES].sort());
  for (const name of KNOWN_ADAPTER_NAMES) {
    assert.equal(await loadAdapter(name), getAdapter(name), name);
  }
  assert.equal(await loadAdapter("nope"), undefined);
  assert.equal(await loadAdapter("constructor"), undefined);
});
