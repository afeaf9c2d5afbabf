import { equal } from "node:assert/strict";
import { join } from "node:path";
import { loadAdapter } from "../adapters/load.ts";
import { locateBinary } from "./locate.ts";

const qoderAdapter = (await loadAdapter("qoder"))!;

async function withBins(names: string[], fn: (dir: string) => void): Promise<void> {
  const dir = await Deno.makeTempDir();
  try {
    for (const name of names) await Deno.writeTextFile(join(dir, name), "#!/bin/sh\n", { mode: 0o755 });
    fn(dir);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

const env = (dir: string) => (name: string) => name === "PATH" ? dir : undefined;

Deno.test("locateBinary() finds Qoder's CN build as qoderclicn, and prefers qodercli when both are there", async () => {
  await withBins(["qoderclicn"], (dir) => {
    equal(locateBinary("qoder", qoderAdapter, { env: env(dir) }).binary, join(dir, "qoderclicn"));
    // Without the second name the CN build is missed: the bad outcome the name list prevents.
    const onlyOne = { defaultBinary: "qodercli", detect: { ...qoderAdapter.detect, alsoNamed: [] } };
    equal(locateBinary("qoder", onlyOne, { env: env(dir) }).binary, null);
  });
  await withBins(["qoderclicn", "qodercli"], (dir) => {
    equal(locateBinary("qoder", qoderAdapter, { env: env(dir) }).binary, join(dir, "qodercli"));
  });
  await withBins([], (dir) => {
    equal(locateBinary("qoder", qoderAdapter, { env: env(dir) }).wanted, "qodercli or qoderclicn");
  });
});
