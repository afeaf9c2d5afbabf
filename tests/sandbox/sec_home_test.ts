/**
 * SEC-06: secrets where PATH and tool installs under HOME lead. A user's PATH holds `~/.npm-global/bin`,
 * `~/.cargo/bin`, `~/.local/bin`; a worker CLI lives in `~/.nvm/versions/node/vX/bin`. Next to them sit
 * `etc/npmrc`, `credentials.toml`, a keyring. The worker and the checks (tools from those dirs) try to
 * read every one from inside the sandbox; under `none` they can, which proves the test can fail.
 */
import assert from "node:assert/strict";
import { dirname, join } from "node:path";
import { ROOT, spot, writeEpisode, writeJson } from "../helpers.ts";
import { BACKENDS, expectEscape, filesContaining, lab, readOr } from "./harness.ts";

/** Secret files at the real places a tool install keeps them, relative to HOME. */
const PLANTED = [
  ".npm-global/etc/npmrc",
  ".nvm/versions/node/v20.0.0/etc/npmrc",
  ".cargo/credentials.toml",
  ".local/share/keyrings/login.keyring",
];
const NVM_BIN = ".nvm/versions/node/v20.0.0/bin";
const TOOL_DIRS = [".npm-global/bin", ".cargo/bin", ".local/bin"];

async function write(path: string, text: string, mode = 0o644) {
  await Deno.mkdir(dirname(path), { recursive: true });
  await Deno.writeTextFile(path, text);
  await Deno.chmod(path, mode);
}

for (const backend of BACKENDS) {
  Deno.test({
    name:
      `SEC-06 under ${backend}: secrets beside tool installs under HOME stay unreadable to worker and checks`,
    sanitizeResources: false,
    sanitizeOps: false,
    fn: async () => {
      const l = await lab();
      try {
        const catAll = PLANTED.map((p) => `cat '${join(l.home, p)}'`).join("; ");
        for (const rel of PLANTED) await write(join(l.home, rel), `secret ${l.canary}\n`, 0o600);
        // The worker CLI: installed under nvm, it hands over to the replay worker.
        const worker = join(l.home, NVM_BIN, "spot-replay");
        await write(worker, `#!/bin/sh\nexec '${join(ROOT, "replay", "spot-replay")}' "$@"\n`, 0o755);
        // One check tool in each PATH dir under HOME; each tries every secret and still passes.
        for (const [i, dir] of TOOL_DIRS.entries()) {
          await write(join(l.home, dir, `probe-${i}`), `#!/bin/sh\n${catAll}\nexit 0\n`, 0o755);
        }
        l.env.env.PATH = [...TOOL_DIRS.map((d) => join(l.home, d)), join(l.home, NVM_BIN), l.env.env.PATH]
          .join(":");
        l.env.env.PI_WORKER_REPLAY_BIN = worker;
        const taskFile = join(l.dir, "task.json");
        await writeJson(taskFile, {
          schemaVersion: 1,
          goal: "Probe the sandbox",
          allowedPaths: ["**"],
          acceptanceCriteria: ["nothing escapes"],
          verification: TOOL_DIRS.map((_, i) => ({ argv: [`probe-${i}`], timeoutSeconds: 30 })),
          risk: "low",
        });
        const episodeFile = join(l.dir, "episode.jsonl");
        await writeEpisode(episodeFile, [
          { op: "exec", argv: ["sh", "-c", `(${catAll}) > seen.txt 2>&1; true`] },
        ]);
        const prep = await spot(
          l.env,
          l.repo,
          "prepare",
          "--task",
          taskFile,
          "--profile",
          "replay",
          "--model",
          episodeFile,
          "--sandbox",
          backend,
        );
        assert.equal(prep.code, 0, prep.stderr);
        const id = String(prep.json.runId);
        const run = await spot(l.env, l.repo, "run", "--id", id);
        assert.equal(run.code, 0, `the worker under HOME must still run: ${run.stderr}`);
        const verify = await spot(l.env, l.repo, "verify", "--id", id);
        const runDir = join(l.env.stateDir, "runs", id);
        const state = JSON.parse(await Deno.readTextFile(join(runDir, "state.json")));
        assert.notEqual(readOr(join(state.worktreePath, "seen.txt")), "", "the probe ran");
        const workerSaw = readOr(join(state.worktreePath, "seen.txt")).includes(l.canary);
        const checksSaw = readOr(join(runDir, "verification.json")).includes(l.canary);
        if (backend === "bwrap") {
          assert.equal(verify.json.passed, true, "the check tools under HOME must still run");
        }
        expectEscape(backend, workerSaw, "the worker read a secret beside its own install");
        expectEscape(backend, checksSaw, "a check read a secret beside its tool's install");
        if (backend === "bwrap") assert.deepEqual(filesContaining(runDir, l.canary), []);
      } finally {
        await l.cleanup();
      }
    },
  });
}
