import assert from "node:assert/strict";
import { join } from "node:path";
import type { DetectInfo, WorkerAdapter } from "../adapters/types.ts";
import { detect, REGISTRY_TTL_MS } from "./detect.ts";
import { type ProbeRunner, spawnRunner } from "./probe.ts";

function fakeAdapter(name: string, detectInfo: DetectInfo): WorkerAdapter {
  return {
    name,
    defaultBinary: name,
    selfReviewReadOnly: "nobody",
    detect: detectInfo,
    plan: () => {
      throw new Error("not used");
    },
    parseLine: () => [],
    finish: () => {
      throw new Error("not used");
    },
  };
}

const LISTING: DetectInfo = {
  versionArgs: ["--version"],
  modelListArgs: ["models"],
  parseModelList: (out) => out.split("\n").map((l) => l.trim()).filter(Boolean),
  minimumVersion: "1.2.0",
};

/** A shell script that logs each call and answers --version and `models`. */
async function fakeCli(dir: string, name: string, version: string, models: string[]): Promise<string> {
  await Deno.mkdir(dir, { recursive: true });
  const path = join(dir, name);
  await Deno.writeTextFile(
    path,
    `#!/bin/sh\necho "$0 $*" >> "${dir}/calls.log"\n` +
      `case "$1" in --version) echo "${name} version ${version}";; models) printf '%s\\n' ${
        models.join(" ")
      };; esac\n`,
  );
  await Deno.chmod(path, 0o755);
  return path;
}

async function calls(dir: string): Promise<number> {
  try {
    return (await Deno.readTextFile(join(dir, "calls.log"))).trim().split("\n").length;
  } catch {
    return 0;
  }
}

Deno.test("detect() finds CLIs on PATH, in candidate dirs and by override, and drops none silently", async () => {
  const tmp = await Deno.makeTempDir();
  const bin = join(tmp, "bin");
  await fakeCli(bin, "alpha", "1.3.0", ["a/one", "a/two-free"]);
  await fakeCli(join(tmp, "home", ".beta", "bin"), "beta", "1.0.0", []);
  const gamma = await fakeCli(join(tmp, "elsewhere"), "gamma-real", "2.0.0", []);
  const env = (n: string) =>
    ({ PATH: bin, HOME: join(tmp, "home"), PI_WORKER_GAMMA_BIN: gamma } as Record<string, string>)[n];
  const { registry, cached } = await detect({
    cacheRoot: join(tmp, "cache"),
    env,
    adapters: {
      alpha: fakeAdapter("alpha", LISTING),
      beta: fakeAdapter("beta", { ...LISTING, modelListArgs: undefined, candidateDirs: [".beta/bin"] }),
      gamma: fakeAdapter("gamma", { versionArgs: ["--version"] }),
      delta: fakeAdapter("delta", LISTING),
    },
  });
  assert.equal(cached, false);
  const by = Object.fromEntries(registry.clis.map((c) => [c.adapter, c]));
  assert.deepEqual(by.alpha.models.map((m) => m.id), ["a/one", "a/two-free"]);
  assert.equal(by.alpha.version, "1.3.0");
  assert.equal(by.alpha.versionOk, true);
  assert.equal(by.beta.foundVia, "candidate-dir");
  assert.equal(by.beta.versionOk, false, "1.0.0 is older than 1.2.0");
  assert.equal(by.gamma.foundVia, "override");
  assert.equal(by.gamma.version, "2.0.0");
  assert.equal(by.delta.installed, false);
  await Deno.remove(tmp, { recursive: true });
});

Deno.test("detect() spawns nothing a second time within 10 minutes, and probes again after", async () => {
  const tmp = await Deno.makeTempDir();
  const bin = join(tmp, "bin");
  await fakeCli(bin, "alpha", "1.3.0", ["m1"]);
  const env = (n: string) => ({ PATH: bin, HOME: tmp } as Record<string, string>)[n];
  let clock = Date.parse("2025-01-01T00:00:00Z");
  const options = {
    cacheRoot: join(tmp, "cache"),
    env,
    now: () => clock,
    adapters: { alpha: fakeAdapter("alpha", LISTING) },
  };
  await detect(options);
  assert.equal(await calls(bin), 2, "version and model list");
  clock += REGISTRY_TTL_MS - 1_000;
  const second = await detect(options);
  assert.equal(second.cached, true);
  assert.equal(await calls(bin), 2, "the cached answer spawned nothing");
  clock += 2_000;
  assert.equal((await detect(options)).cached, false);
  assert.equal(await calls(bin), 4, "a stale cache probes again");
  await Deno.remove(tmp, { recursive: true });
});

Deno.test("detect() treats a cache made under another PATH as stale, and --refresh ignores it", async () => {
  const tmp = await Deno.makeTempDir();
  let spawns = 0;
  const run: ProbeRunner = (argv, env) => {
    spawns++;
    return spawnRunner(argv, env);
  };
  const options = (path: string) => ({
    cacheRoot: join(tmp, "cache"),
    env: (n: string) => ({ PATH: path, HOME: tmp } as Record<string, string>)[n],
    run,
    adapters: { alpha: fakeAdapter("alpha", LISTING) },
  });
  await fakeCli(join(tmp, "a"), "alpha", "1.3.0", ["m1"]);
  await detect(options(join(tmp, "a")));
  assert.equal(spawns, 2);
  assert.equal((await detect(options(join(tmp, "b")))).cached, false);
  assert.equal((await detect({ ...options(join(tmp, "b")), refresh: true })).cached, false);
  assert.equal((await detect(options(join(tmp, "b")))).cached, true);
  await Deno.remove(tmp, { recursive: true });
});

Deno.test("detect() gives an installed qoder its priced catalog", async () => {
  const tmp = await Deno.makeTempDir();
  const bin = join(tmp, "bin");
  await fakeCli(bin, "qoder", "1.1.73", []);
  const { registry } = await detect({
    cacheRoot: join(tmp, "cache"),
    env: (n) => ({ PATH: bin, HOME: tmp } as Record<string, string>)[n],
    adapters: { qoder: fakeAdapter("qoder", { versionArgs: ["--version"] }) },
  });
  const qoder = registry.clis[0];
  assert.equal(qoder.modelsSource, "catalog");
  assert.ok(qoder.models.some((m) => m.priceFactor === 0));
  await Deno.remove(tmp, { recursive: true });
});
