import assert from "node:assert/strict";
import { join } from "node:path";
import { probeBwrap } from "../sandbox/probe.ts";
import { quickHash } from "../base/cache_dir.ts";
import { probeKey, probeMemory, rememberedUsable } from "./probe_cache.ts";
import { which } from "../sandbox/which.ts";

const PATH = Deno.env.get("PATH") ?? "/usr/bin:/bin";
const realBwrap = which("bwrap", PATH);

async function entries(dir: string): Promise<string[]> {
  try {
    return (await Array.fromAsync(Deno.readDir(dir))).map((e) => e.name).filter((n) => n.endsWith(".json"));
  } catch {
    return [];
  }
}

Deno.test({
  name: "a usable bwrap is remembered under its facts; a new binary or a changed argv is probed again",
  ignore: realBwrap === null,
  fn: async () => {
    const root = await Deno.makeTempDir();
    try {
      const cacheDir = join(root, "probe");
      const first = await probeBwrap({ pathVar: PATH, memory: probeMemory(cacheDir) });
      assert.equal(first.available, true, first.reason ?? "");
      assert.equal((await entries(cacheDir)).length, 1);
      // A copy of the binary elsewhere is another identity: its key differs, so nothing is remembered for it.
      const copy = join(root, "bwrap");
      await Deno.copyFile(realBwrap!, copy);
      await Deno.chmod(copy, 0o755);
      const argv = ["x"];
      const k1 = await probeKey([realBwrap!], argv);
      const k2 = await probeKey([copy], argv);
      const k3 = await probeKey([realBwrap!], ["y"]);
      assert.ok(k1 && k2 && k3);
      assert.notEqual(k1, k2);
      assert.notEqual(k1, k3);
      assert.equal(await rememberedUsable(cacheDir, k2!), null);
      // Touching the binary changes its identity too.
      await Deno.utime(copy, new Date(), new Date(Date.now() - 86_400_000));
      assert.notEqual(await probeKey([copy], argv), k2);
    } finally {
      await Deno.remove(root, { recursive: true });
    }
  },
});

Deno.test("an unusable bwrap is never remembered, and an entry planted for other facts is not believed", async () => {
  const root = await Deno.makeTempDir();
  try {
    const cacheDir = join(root, "probe");
    const fake = join(root, "fake-bwrap");
    await Deno.writeTextFile(
      fake,
      "#!/bin/sh\necho 'bwrap: No permissions to create a new namespace' >&2\nexit 1\n",
    );
    await Deno.chmod(fake, 0o755);
    const probe = await probeBwrap({ pathVar: PATH, override: fake, memory: probeMemory(cacheDir) });
    assert.equal(probe.available, false);
    assert.match(probe.reason ?? "", /No permissions/);
    assert.deepEqual(await entries(cacheDir), []);
    // What the probe asks its memory about this binary, to plant entries under the right file name.
    let asked: { binaries: string[]; argv: string[] } | null = null;
    const memory = probeMemory(cacheDir);
    const spy = {
      ...memory,
      name: "spy",
      recall: (binaries: string[], argv: string[]) => {
        asked = { binaries, argv };
        return memory.recall(binaries, argv);
      },
    };
    await probeBwrap({ pathVar: `${PATH}:`, override: fake, memory: spy });
    const facts = await probeKey(asked!.binaries, asked!.argv);
    assert.ok(facts);
    const name = join(cacheDir, `${quickHash(facts)}.json`);
    await Deno.mkdir(cacheDir, { recursive: true });
    // Under the right name but for other facts (another binary, another boot): ignored, the fake is probed.
    await Deno.writeTextFile(
      name,
      JSON.stringify({ inputs: facts.replace(fake, "/usr/bin/bwrap"), value: { usable: true } }),
    );
    const again = await probeBwrap({ pathVar: `${PATH}::`, override: fake, memory: probeMemory(cacheDir) });
    assert.equal(again.available, false);
    // With exactly these facts it would be believed: the comparison above is what refused the plant.
    await Deno.writeTextFile(name, JSON.stringify({ inputs: facts, value: { usable: true, version: null } }));
    const believed = await probeBwrap({
      pathVar: `${PATH}:::`,
      override: fake,
      memory: probeMemory(cacheDir),
    });
    assert.equal(believed.available, true);
    assert.equal(believed.path, fake, "the path is the lookup's, never the entry's");
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});
