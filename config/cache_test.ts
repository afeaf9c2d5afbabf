import assert from "node:assert/strict";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { quickHash } from "../base/cache_dir.ts";
import { cachedConfig, saveCachedConfig, validatingFiles } from "./cache.ts";
import { defaultConfigText } from "./defaults.ts";
import { forgetResidentConfigs, loadConfigWithWarnings as loadResident } from "./load.ts";
import { readConfig } from "./parse.ts";
import { spawnProcess } from "../sandbox/spawn.ts";

const here = dirname(fileURLToPath(import.meta.url));
const LEGACY = join(here, "..", "tests", "fixtures", "legacy", "config.json");

/** A load as a fresh process does it (the CLI): nothing kept in memory, so the cache dir answers or not. */
function loadConfigWithWarnings(file: string, cacheRoot?: string) {
  forgetResidentConfigs();
  return loadResident(file, cacheRoot);
}

Deno.test("the cache's source list is config/parse.ts and every local module it imports, plus deno.json", async () => {
  const r = await spawnProcess([Deno.execPath(), "info", "--json", join(here, "parse.ts")], {
    env: { PATH: Deno.env.get("PATH") ?? "", HOME: Deno.env.get("HOME") ?? "", NO_COLOR: "1" },
    cwd: here,
  });
  assert.equal(r.exitCode, 0, r.stderr);
  const graph = (JSON.parse(r.stdout).modules as { specifier: string }[])
    .filter((m) => m.specifier.startsWith("file:"))
    .map((m) => relative(here, fileURLToPath(m.specifier)))
    .map((p) => (p.startsWith("..") ? p : `./${p}`));
  assert.deepEqual([...graph, "../deno.json"].sort(), validatingFiles().sort());
});

Deno.test("a cached config is exactly what validating the text gives, warnings included", async () => {
  const root = await Deno.makeTempDir();
  try {
    for (
      const [name, text] of [["default", defaultConfigText()], ["legacy", await Deno.readTextFile(LEGACY)]]
    ) {
      const file = join(root, `${name}.json`);
      await Deno.writeTextFile(file, text);
      const fresh = readConfig(file, text);
      const first = await loadConfigWithWarnings(file, join(root, "cache"));
      assert.deepStrictEqual(first, fresh, name);
      const slot = cachedConfig(join(root, "cache"), file, text);
      assert.ok(slot?.hit, `${name}: nothing cached`);
      assert.deepStrictEqual(slot.hit, fresh, `${name}: the cached copy differs`);
      if (name === "legacy") assert.ok(slot.hit.warnings.length > 0, "the legacy fixture has no warnings");
    }
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("a changed text, a renamed file or a forged entry is validated again, never read from the cache", async () => {
  const root = await Deno.makeTempDir();
  const cache = join(root, "cache");
  try {
    const file = join(root, "config.json");
    await Deno.writeTextFile(file, JSON.stringify({ defaultProfile: "replay" }));
    await loadConfigWithWarnings(file, cache);
    // The same path, a text that fails validation: the earlier entry must not answer for it.
    await Deno.writeTextFile(file, JSON.stringify({ defaultProfile: "replay", nope: 1 }));
    await assert.rejects(loadConfigWithWarnings(file, cache), /CONFIG_INVALID|nope/);
    // An entry under this file name whose stored inputs differ (another text, a forgery) is not trusted.
    const good = JSON.stringify({ defaultProfile: "replay" });
    await Deno.writeTextFile(file, good);
    const slot = cachedConfig(cache, file, good)!;
    const forged = readConfig(file, good);
    forged.config.sandbox = "none";
    const name = join(slot.slot.dir, `${slot.slot.name}.json`);
    const planted = { inputs: slot.slot.inputs.replace(good, "{}"), value: forged };
    await Deno.writeTextFile(name, JSON.stringify(planted));
    assert.equal((await loadConfigWithWarnings(file, cache)).config.sandbox, "auto");
    // The same entry with the right inputs would be read: the check above is what refused it.
    await Deno.writeTextFile(name, JSON.stringify({ ...planted, inputs: slot.slot.inputs }));
    assert.equal((await loadConfigWithWarnings(file, cache)).config.sandbox, "none");
    await Deno.remove(name);
    const again = await loadConfigWithWarnings(file, cache);
    assert.equal(again.config.sandbox, "auto");
    // Without the cache's help (the same text under another path) the result is the same.
    const other = join(root, "other.json");
    await Deno.writeTextFile(other, good);
    assert.deepStrictEqual((await loadConfigWithWarnings(other, cache)).config, again.config);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("a cache dir that cannot be written costs only the validation", async () => {
  const root = await Deno.makeTempDir();
  try {
    const file = join(root, "config.json");
    await Deno.writeTextFile(file, defaultConfigText());
    await Deno.writeTextFile(join(root, "blocker"), "a file where the cache dir would be");
    const loaded = await loadConfigWithWarnings(file, join(root, "blocker"));
    assert.ok(loaded.config.profiles.replay);
    await saveCachedConfig({ dir: join(root, "blocker", "config"), inputs: "x", name: "x" }, loaded);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("a resident process answers from memory while the text is the same, and sees every edit", async () => {
  const root = await Deno.makeTempDir();
  const cache = join(root, "cache");
  try {
    forgetResidentConfigs();
    const file = join(root, "config.json");
    const text = JSON.stringify({ defaultProfile: "replay", sandbox: "bwrap" });
    await Deno.writeTextFile(file, text);
    const first = await loadResident(file, cache);
    assert.equal(first.config.sandbox, "bwrap");
    // Memory answers: a forged disk entry for the same inputs is not even read.
    const slot = cachedConfig(cache, file, text)!;
    const forged = readConfig(file, text);
    forged.config.sandbox = "none";
    await Deno.writeTextFile(
      join(slot.slot.dir, `${quickHash(slot.slot.inputs)}.json`),
      JSON.stringify({ inputs: slot.slot.inputs, value: forged }),
    );
    const second = await loadResident(file, cache);
    assert.equal(second.config.sandbox, "bwrap");
    // Each caller gets its own copy.
    second.config.sandbox = "none";
    assert.equal((await loadResident(file, cache)).config.sandbox, "bwrap");
    // An edit of the same length within the same second is seen at once: the text is compared, not a stamp.
    const edited = JSON.stringify({ defaultProfile: "replay", sandbox: "nope!" });
    assert.equal(edited.length, text.length);
    await Deno.writeTextFile(file, edited);
    await assert.rejects(loadResident(file, cache), /CONFIG_INVALID|sandbox/);
    const stricter = JSON.stringify({ defaultProfile: "replay", sandbox: "auto" });
    await Deno.writeTextFile(file, stricter);
    assert.equal((await loadResident(file, cache)).config.sandbox, "auto");
  } finally {
    forgetResidentConfigs();
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("a validating module written again (its text unchanged) is a miss until validated again", async () => {
  const root = await Deno.makeTempDir();
  const cache = join(root, "cache");
  const module = new URL("./defaults.ts", import.meta.url);
  const before = Deno.statSync(module);
  try {
    const file = join(root, "config.json");
    const text = JSON.stringify({ defaultProfile: "replay" });
    await Deno.writeTextFile(file, text);
    await loadConfigWithWarnings(file, cache);
    assert.notEqual(cachedConfig(cache, file, text)!.hit, null, "validated once, the entry answers");
    // Setting the times is a write of the file's inode: its change time moves, as any edit's would.
    Deno.utimeSync(module, before.atime!, new Date(before.mtime!.getTime() + 1000));
    assert.equal(cachedConfig(cache, file, text)!.hit, null, "the module changed: the entry must not answer");
    await loadConfigWithWarnings(file, cache);
    assert.notEqual(cachedConfig(cache, file, text)!.hit, null);
  } finally {
    Deno.utimeSync(module, before.atime!, before.mtime!);
    await Deno.remove(root, { recursive: true });
  }
});
