/**
 * A run's dependency setup, made and then reused: `npm ci` from a lockfile against a registry on
 * 127.0.0.1 (tests/projects/registry.ts), under bwrap with the egress proxy when bwrap works here. Each
 * round prepares two runs of the same project with one fresh cache: the first installs, the second reuses.
 * Prints `BENCH setup_reuse ratio=<second run's setup time / first run's> target=0.2` (medians), with the
 * prepare wall times beside it.
 */
import { join } from "node:path";
import { makeRepo, spot, spotEnv, writeEpisode, writeJson } from "../tests/helpers.ts";
import { PACKAGE, startRegistry } from "../tests/projects/registry.ts";
import { probeBwrap } from "../sandbox/probe.ts";
import { benchRatio, finishBench, median } from "./bench_line.ts";

const ROUNDS = 3;
const TARGET = 0.2;

const bwrap = (await probeBwrap({ pathVar: Deno.env.get("PATH") ?? "" })).available;
const sandbox = bwrap ? "bwrap" : "none";

const registry = await startRegistry();
const setupMs: number[][] = [[], []];
const prepareMs: number[][] = [[], []];
try {
  for (let round = 0; round < ROUNDS; round++) {
    const env = await spotEnv({ sandbox, dependencies: { registries: [`127.0.0.1:${registry.port}`] } });
    try {
      for (const which of [0, 1]) {
        const repo = await makeRepo({
          "package.json": JSON.stringify({
            name: "bench",
            version: "1.0.0",
            dependencies: { [PACKAGE]: "1.0.0" },
          }),
          "package-lock.json": registry.lockfile("bench"),
          ".gitignore": "node_modules/\n",
          "index.js": `module.exports = require("${PACKAGE}");\n`,
        }, env.dir);
        const task = join(env.dir, "task.json");
        await writeJson(task, {
          schemaVersion: 1,
          goal: "Nothing to change",
          allowedPaths: ["index.js"],
          acceptanceCriteria: ["-"],
          verification: [{ argv: ["true"], timeoutSeconds: 10 }],
          risk: "low",
        });
        const episode = join(env.dir, "episode.jsonl");
        await writeEpisode(episode, []);
        const started = performance.now();
        const r = await spot(env, repo, "prepare", "--task", task, "--profile", "replay", "--model", episode);
        prepareMs[which].push(performance.now() - started);
        if (r.code !== 0) throw new Error(`prepare failed: ${r.stderr}`);
        const state = JSON.parse(
          await Deno.readTextFile(join(env.stateDir, "runs", String(r.json.runId), "state.json")),
        );
        const setup = state.dependencies?.setup;
        if (!setup || setup.cached !== (which === 1)) {
          throw new Error(
            `run ${which + 1} of round ${round + 1}: unexpected setup ${JSON.stringify(setup)}`,
          );
        }
        setupMs[which].push(setup.durationMs);
      }
    } finally {
      await Deno.remove(env.dir, { recursive: true });
    }
  }
} finally {
  await registry.close();
}
benchRatio("setup_reuse", setupMs[1], setupMs[0], {
  target: TARGET,
  names: ["second_setup", "first_setup"],
  paired: true,
  detail: `sandbox=${sandbox} first_prepare_ms=${median(prepareMs[0]).toFixed(0)} second_prepare_ms=${
    median(prepareMs[1]).toFixed(0)
  }`,
});
finishBench();
