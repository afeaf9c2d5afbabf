import assert from "node:assert/strict";
import { join } from "node:path";
import { Config } from "../schemas/config.ts";
import { probeConnections } from "./connections.ts";

Deno.test("probeConnections() finds a binary on PATH, reads its version, and never runs a missing one", async () => {
  const dir = await Deno.makeTempDir();
  try {
    await Deno.writeTextFile(join(dir, "pi"), "#!/bin/sh\necho 'pi 1.2.3'\n", { mode: 0o755 });
    const env = (name: string) =>
      ({ PATH: dir, HOME: dir, SECRET_KEY: "hunter2" } as Record<string, string>)[name];
    const config = Config.parse({
      defaultProfile: "a",
      profiles: {
        a: { adapter: "pi", provider: "x", model: "m", apiKeyEnv: "SECRET_KEY" },
        b: { adapter: "nosuch", provider: "y", model: "m", apiKeyEnv: "OTHER_KEY" },
      },
    });
    const c = await probeConnections({ config, env, usedProfiles: new Set(["b"]), now: () => "now" });
    const pi = c.adapters.find((a) => a.name === "pi");
    assert.deepEqual(pi, {
      name: "pi",
      known: true,
      binary: join(dir, "pi"),
      installed: true,
      version: "pi 1.2.3",
    });
    assert.deepEqual(c.adapters.find((a) => a.name === "nosuch")?.known, false);
    assert.equal(JSON.stringify(c).includes("hunter2"), false);
    const b = c.profiles.find((p) => p.name === "b");
    assert.equal(b?.credentialPresent, false);
    assert.equal(b?.exportHint, "export OTHER_KEY=YOUR_KEY_HERE");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
