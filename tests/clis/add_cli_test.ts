/**
 * Adding a worker CLI is one file, `adapters/clis/<name>.ts` (its record, launch plan and stream reader),
 * and `deno task clis` to list it in the generated index: in a copy of spot's source with exactly that file
 * added and that task run, the new CLI is detected, its settings are checked at config load, its profile
 * ships in the default config, doctor finds its binary and says how to install it when it is missing, and a
 * run prepared for it is loaded lazily, run and verified.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { spawnProcess } from "../../sandbox/spawn.ts";
import { ROOT, type SpotEnv, spotEnv } from "../helpers.ts";
import { demoScenario } from "../scenario.ts";

const SKIP = new Set([".git", ".workers", "tests", "bench", "node_modules", "test-output", "dist", "docs"]);

async function copySource(from: string, to: string): Promise<void> {
  await Deno.mkdir(to, { recursive: true });
  for await (const e of Deno.readDir(from)) {
    if (SKIP.has(e.name)) continue;
    if (e.isDirectory) await copySource(join(from, e.name), join(to, e.name));
    else if (e.isFile) await Deno.copyFile(join(from, e.name), join(to, e.name));
  }
}

/** The one file: everything spot knows about the CLI, its launch plan over the replay worker (which speaks
 * pi's stream), and that reader. */
const CLI_FILE = `import { join } from "../../base/path.ts";
import { lazy } from "../../base/lazy.ts";
import type { LaunchSpec } from "../types.ts";
import type { CliRecord } from "./record.ts";
import { dotDir, noRoute, SESSIONS_IN_PRIVATE_HOME } from "./record.ts";

const stream = () => lazy<typeof import("../streams/pi.ts")>("../streams/pi.ts", import.meta.url);

export const acmeCli: CliRecord = {
  name: "acme",
  listed: 20,
  title: "Acme Coder",
  defaultBinary: "acme",
  detect: { versionArgs: ["--version"] },
  install: "npm install -g acme-coder",
  selfReviewReadOnly: "nobody",
  sessions: SESSIONS_IN_PRIVATE_HOME,
  settings: {
    reasoningEffort: noRoute("acme has no effort setting"),
    maxContextSize: noRoute("acme has no context setting"),
    maxTurns: { via: "flag", name: "--max-turns" },
  },
  network: { offline: true },
  homeFiles: [dotDir(".acme", ["acme.toml"])],
  profiles: { "acme-cli": { adapter: "acme", provider: "acme", model: "" } },
  plan: (spec: LaunchSpec) => ({
    argv: [
      spec.binary,
      ...["--episode", spec.profile.model, "--phase", spec.phase],
      ...["--session-dir", join(spec.runDir, "acme-session")],
    ],
    env: { ...spec.baseEnv, HOME: spec.homeDir, SPOT_DENO: Deno.execPath(), NO_COLOR: "1" },
    files: [],
    stdinFile: spec.promptFile,
  }),
  reader: async () => {
    const { parsePiLine, finishPi } = await stream();
    return { parseLine: parsePiLine, finish: finishPi };
  },
};
`;

async function run(copy: string, env: SpotEnv, cwd: string, ...args: string[]) {
  const r = await spawnProcess(
    [
      Deno.execPath(),
      "run",
      "--allow-all",
      "--no-prompt",
      "--config",
      join(copy, "deno.json"),
      join(copy, "cli.ts"),
      ...args,
    ],
    { cwd, env: env.env, timeoutMs: 180_000 },
  );
  const text = (r.exitCode === 0 ? r.stdout : r.stderr).trim();
  let json: Record<string, unknown> = {};
  try {
    json = JSON.parse(text.split("\n").pop() ?? "{}");
  } catch {
    json = { unparsed: text };
  }
  return { code: r.exitCode, json, stderr: r.stderr };
}

Deno.test("a new CLI is one file and `deno task clis`: detected, checked, shipped, run", async () => {
  const env = await spotEnv();
  const copy = join(env.dir, "spot");
  try {
    await copySource(ROOT, copy);
    await Deno.writeTextFile(join(copy, "adapters", "clis", "acme.ts"), CLI_FILE);
    const task = JSON.parse(await Deno.readTextFile(join(ROOT, "deno.json"))).tasks.clis as string;
    const generated = await spawnProcess(["sh", "-c", task.replace(/^deno /, `"${Deno.execPath()}" `)], {
      cwd: copy,
      env: env.env,
      timeoutMs: 60_000,
    });
    assert.equal(generated.exitCode, 0, generated.stderr);
    assert.match(await Deno.readTextFile(join(copy, "adapters", "clis", "mod.ts")), /acmeCli,/);

    // Before its binary is installed: doctor says how to install it.
    const missing = await run(copy, env, env.dir, "doctor", "--profile", "acme-cli", "--sandbox", "none");
    assert.equal((missing.json.error as { code: string }).code, "DOCTOR_FAILED", missing.stderr);
    const details =
      (missing.json.error as { details: { checks: { name: string; ok: boolean; fix?: string }[] } })
        .details;
    const checks = details.checks;
    const binary = checks.find((c) => c.name === "worker binary");
    assert.equal(binary?.ok, false, missing.stderr);
    assert.match(binary?.fix ?? "", /npm install -g acme-coder/);

    // A fake acme on PATH that plays replay episodes.
    const bin = join(env.dir, "bin");
    await Deno.mkdir(bin);
    await Deno.writeTextFile(
      join(bin, "acme"),
      `#!/bin/sh\n[ "$1" = --version ] && { echo "acme 3.1.4"; exit 0; }\nexec "${copy}/replay/spot-replay" "$@"\n`,
    );
    await Deno.chmod(join(bin, "acme"), 0o755);
    env.env.PATH = `${bin}:${env.env.PATH}`;

    const shown = await run(copy, env, env.dir, "config", "show");
    const profiles = (shown.json.config as { profiles: Record<string, { adapter: string }> }).profiles;
    assert.equal(profiles["acme-cli"]?.adapter, "acme");

    // Detected as a CLI spot knows, not only as the adapter of a configured profile.
    await Deno.writeTextFile(env.configFile, JSON.stringify({ defaultProfile: "replay" }));
    const detected = await run(copy, env, env.dir, "detect", "--refresh", "--json");
    await Deno.remove(env.configFile);
    assert.equal(detected.code, 0, detected.stderr);
    const row = ((detected.json.registry as { clis: unknown[] }).clis as {
      adapter: string;
      installed: boolean;
      version: string;
    }[])
      .find((c) => c.adapter === "acme");
    assert.deepEqual([row?.installed, row?.version], [true, "3.1.4"]);

    const sc = await demoScenario(env.dir);
    const prepared = await run(
      copy,
      env,
      sc.repo,
      ...["prepare", "--task", sc.taskFile, "--profile", "acme-cli", "--model", sc.episodeFile],
      ...["--sandbox", "none"],
    );
    assert.equal(prepared.code, 0, prepared.stderr);
    const id = String(prepared.json.runId);
    const ran = await run(copy, env, sc.repo, "run", "--id", id);
    assert.equal(ran.code, 0, ran.stderr);
    const verified = await run(copy, env, sc.repo, "verify", "--id", id);
    assert.equal(verified.json.passed, true, verified.stderr);

    // Its settings row is the one config load checks against.
    await Deno.writeTextFile(
      env.configFile,
      JSON.stringify({
        profiles: { a: { adapter: "acme", provider: "acme", model: "m", reasoningEffort: "high" } },
      }),
    );
    const refused = await run(copy, env, env.dir, "config", "validate");
    assert.equal(refused.code, 2);
    assert.match(refused.stderr, /acme has no effort setting/);
  } finally {
    await Deno.remove(env.dir, { recursive: true });
  }
});
