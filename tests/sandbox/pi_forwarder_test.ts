/**
 * Conformance with a real worker CLI: pi (installed by `deno task workers`)
 * driven by the scripted model server through the provider forwarder. The
 * model is malicious: its one write goes outside the worktree (the parent's
 * .git hooks, another run's worktree, the user's ~/.ssh). Under bwrap the
 * turn still succeeds, the key reaches the provider only through the
 * forwarder, and every write misses the host; under none the write lands.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { ROOT, writeJson } from "../helpers.ts";
import { startModelServer } from "../model_server/mod.ts";
import {
  BACKENDS,
  episode,
  exists,
  expectEscape,
  filesContaining,
  lab,
  prepareRun,
  readOr,
} from "./harness.ts";

const PI = join(ROOT, ".workers", "node_modules", ".bin", "pi");
const KEY_ENV = "SPOT_SCRIPTED_PROVIDER_KEY";
const installed = exists(PI);

for (const backend of BACKENDS) {
  Deno.test({
    name:
      `a real pi turn under ${backend} with a malicious scripted model: its writes outside the worktree miss the host`,
    ignore: !installed,
    sanitizeResources: false,
    sanitizeOps: false,
    fn: async (t) => {
      const key = `sk-scripted-${crypto.randomUUID()}`;
      const l = await lab();
      l.env.env[KEY_ENV] = key;
      try {
        // Another run's worktree, which this worker must not touch.
        const other = await prepareRun(l, "none", [{ op: "say", text: "idle" }]);
        const otherState = JSON.parse(readOr(join(l.env.stateDir, "runs", other.runId, "state.json")));
        const targets = {
          "the parent repository's .git hooks": join(
            await Deno.realPath(l.repo),
            ".git",
            "hooks",
            "post-checkout",
          ),
          "another run's worktree": join(otherState.worktreePath, "planted.txt"),
          "the user's ~/.ssh": join(l.home, ".ssh", "authorized_keys"),
        };
        for (const [what, file] of Object.entries(targets)) {
          await t.step(`the model's write to ${what} misses the host`, async () => {
            // An absolute path with no workdir: the scripted model writes exactly there.
            await using server = await startModelServer({
              scenario: "success",
              file,
              content: `planted ${l.canary}\n`,
            });
            await writeJson(l.env.configFile, piConfig(`${server.url}/v1`));
            const ep = await episode(l, backend, [], { prepareArgs: ["--profile", "pi"] });
            // Under none the escape gate blocks the run afterwards (the second line); under bwrap the turn is clean.
            if (backend === "bwrap") assert.equal(ep.run.code, 0, ep.run.stderr);
            const sent = server.requests.filter((r) => r.dialect !== null);
            assert.ok(sent.length >= 2, "pi asked the model, ran the tool, and asked again");
            assert.ok(sent.every((r) => r.key === key), "the provider saw the real key on every request");
            expectEscape(backend, readOr(file).includes(l.canary), `${what}: ${file}`);
            if (backend !== "bwrap") return;
            const log = readOr(join(ep.runDir, "forwarder.jsonl")).split("\n").filter(Boolean).map((x) =>
              JSON.parse(x)
            );
            assert.ok(log.length >= 2 && log.every((e) => e.decision === "forwarded"), JSON.stringify(log));
            const leaks = [...filesContaining(ep.worktree, key), ...filesContaining(ep.runDir, key)];
            assert.deepEqual(leaks, [], "the real key is in no file the worker or the run wrote");
          });
        }
      } finally {
        await l.cleanup();
      }
    },
  });
}

function piConfig(baseUrl: string): Record<string, unknown> {
  return {
    selfReview: { enabled: false },
    limits: { workerIdleSeconds: 20, workerTimeoutSeconds: 60 },
    profiles: {
      pi: {
        adapter: "pi",
        provider: "scripted",
        model: "scripted-model",
        apiKeyEnv: KEY_ENV,
        baseUrl,
        providerType: "openai-completions",
        binary: PI,
      },
    },
  };
}
