import assert from "node:assert/strict";
import { join } from "node:path";
import { Config } from "../schemas/config.ts";
import { DEFAULT_CONFIG } from "../config/defaults.ts";
import { probeConnections, routedProfiles } from "./connections.ts";
import { renderConnections } from "./views/connections.ts";

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
      needed: false,
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

Deno.test("routedProfiles(): the profiles runs used and callers start from, with their fallbacks; the default only before any run", () => {
  const config = Config.parse({
    defaultProfile: "paid",
    callerProfiles: { codex: "cheap" },
    profiles: {
      paid: { adapter: "pi", provider: "x", model: "m", apiKeyEnv: "PAID_KEY", fallbackProfiles: ["spare"] },
      spare: { adapter: "pi", provider: "y", model: "m", apiKeyEnv: "SPARE_KEY" },
      cheap: { adapter: "opencode", provider: "z", model: "m", fallbackProfiles: ["spare"] },
      replay: { adapter: "replay", provider: "replay", model: "" },
    },
  });
  assert.deepEqual([...routedProfiles(config, new Set())].sort(), ["cheap", "paid", "spare"]);
  assert.deepEqual([...routedProfiles(config, new Set(["replay", "gone"]))].sort(), [
    "cheap",
    "replay",
    "spare",
  ]);
  const replayOnly = Config.parse({ profiles: config.profiles, defaultProfile: "paid" });
  assert.deepEqual([...routedProfiles(replayOnly, new Set(["replay"]))], ["replay"]);
});

Deno.test("a replay-only user's panel: missing CLIs are available to install, and no key is asked for", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const env = (name: string) => ({ PATH: dir, HOME: dir } as Record<string, string>)[name];
    const c = await probeConnections({
      config: Config.parse(DEFAULT_CONFIG),
      env,
      usedProfiles: new Set(["replay"]),
      now: () => "now",
    });
    assert.ok(c.adapters.some((a) => !a.installed), "the default config names CLIs this machine lacks");
    assert.deepEqual(c.adapters.filter((a) => a.needed).map((a) => a.name), ["replay"]);
    assert.deepEqual(c.profiles.filter((p) => p.routed).map((p) => p.name), ["replay"]);
    const out = (await renderConnections(c)).toString();
    assert.doesNotMatch(out, /class="bad"/, "nothing shown as a failure");
    assert.doesNotMatch(out, /YOUR_KEY_HERE/, "no key to set");
    assert.match(out, /Available to install: pi, /);
    assert.match(out, /VOLCENGINE_API_KEY not set; nothing routes to it/);
    const routed = await probeConnections({
      config: Config.parse(DEFAULT_CONFIG),
      env,
      usedProfiles: new Set(["volcengine"]),
      now: () => "now",
    });
    const warned = (await renderConnections(routed)).toString();
    assert.match(
      warned,
      /<span\s+class="bad">VOLCENGINE_API_KEY is not set<\/span>/,
      "a routed profile's key is asked for",
    );
    assert.match(warned, /<span class="bad">no<\/span>/, "its missing CLI is a problem");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
