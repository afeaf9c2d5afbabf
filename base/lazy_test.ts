import assert from "node:assert/strict";
import { lazy } from "./lazy.ts";

const HOOK = Symbol.for("spot.js-copy");
const slot = globalThis as Record<symbol, unknown>;

Deno.test("lazy() loads the module the copy's hook names, and refuses one the hook says changed", async () => {
  const asked: string[] = [];
  try {
    // The hook sends path.ts to interrupt.ts: what lazy() returns is what the hook named.
    slot[HOOK] = (url: string) => {
      asked.push(url);
      if (url.endsWith("/path.ts")) return Promise.resolve(new URL("./interrupt.ts", import.meta.url).href);
      return Promise.resolve(null);
    };
    const loaded = await lazy<Record<string, unknown>>("./path.ts", import.meta.url);
    assert.deepEqual(Object.keys(loaded).sort(), Object.keys(await import("./interrupt.ts")).sort());
    await assert.rejects(
      lazy("./timings.ts", import.meta.url),
      /spot's sources changed after this process started \(file:.*\/base\/timings\.ts\)/,
    );
    assert.deepEqual(asked.map((u) => u.slice(u.lastIndexOf("/") + 1)), ["path.ts", "timings.ts"]);
  } finally {
    delete slot[HOOK];
  }
  // Without a hook (the sources, a library): the module itself.
  assert.deepEqual(
    Object.keys(await lazy<Record<string, unknown>>("./path.ts", import.meta.url)).sort(),
    Object.keys(await import("./path.ts")).sort(),
  );
});
