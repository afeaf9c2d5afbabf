/**
 * Every shipped profile, as shipped, without a baseUrl and with one, under bwrap and without a sandbox:
 * `doctor` says the worker reaches its provider exactly when `prepare` accepts the run (the same plan
 * decides both). In process, for speed. A profile nobody can route is in the table, so both sides are seen
 * saying no.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { DEFAULT_CONFIG } from "../config/defaults.ts";
import { createContext } from "../config/context.ts";
import { doctor } from "../doctor/doctor.ts";
import { isSpotError } from "../errors.ts";
import { prepare } from "../verbs/prepare.ts";
import { makeRepo, writeEpisode, writeJson } from "./helpers.ts";

type ProfileIn = Record<string, unknown> & { apiKeyEnv?: string; baseUrl?: string; adapter?: string };
const shipped = DEFAULT_CONFIG.profiles as Record<string, ProfileIn>;
const UNROUTABLE: ProfileIn = {
  adapter: "pi",
  provider: "nobody-knows",
  model: "m",
  apiKeyEnv: "NOBODY_KEY",
};

function variants(profile: ProfileIn): Record<string, ProfileIn> {
  const { baseUrl: _drop, ...without } = profile;
  return {
    shipped: profile,
    "without baseUrl": without,
    "with baseUrl": { ...profile, baseUrl: "https://llm.example/v1" },
  };
}

Deno.test("shipped profiles: doctor says the worker reaches its provider exactly when prepare accepts the run", async () => {
  const dir = await Deno.makeTempDir({ prefix: "spot-shipped-net-" });
  try {
    const repo = await makeRepo({ "a.txt": "a\n" }, dir);
    const taskFile = join(dir, "task.json");
    await writeJson(taskFile, {
      schemaVersion: 1,
      goal: "Change a.txt",
      allowedPaths: ["a.txt"],
      acceptanceCriteria: ["a.txt changed"],
      verification: [{ argv: ["true"], timeoutSeconds: 10 }],
      risk: "low",
    });
    const episode = join(dir, "episode.jsonl");
    await writeEpisode(episode, []);
    const seen = { refused: 0, accepted: 0 };
    let n = 0;
    for (const [name, profile] of Object.entries({ ...shipped, unroutable: UNROUTABLE })) {
      for (const [variant, p] of Object.entries(variants(profile))) {
        for (const sandbox of ["bwrap", "none"]) {
          const root = join(dir, `case-${n++}`);
          const configFile = join(root, "config.json");
          await Deno.mkdir(root, { recursive: true });
          const profiles = { ...shipped, unroutable: UNROUTABLE, [name]: p };
          await writeJson(configFile, { maxConcurrentRuns: 16, profiles });
          const vars: Record<string, string> = {
            PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin",
            HOME: root,
            PI_WORKER_CONFIG: configFile,
            PI_WORKER_STATE_DIR: join(root, "state"),
            PI_WORKER_CACHE_DIR: join(root, "cache"),
          };
          if (p.apiKeyEnv) vars[p.apiKeyEnv] = "sk-not-a-real-key";
          const ctx = await createContext({ env: (k) => vars[k], cwd: repo });
          const model = p.adapter === "replay" ? episode : undefined;
          const report = await doctor(ctx, { profile: name, model, sandbox }).catch((e) => {
            if (isSpotError(e, "DOCTOR_FAILED")) return e.details as { checks: unknown };
            if (isSpotError(e)) return { refusedWith: e.code };
            throw e;
          });
          if ("refusedWith" in report) {
            // Refused before the network is judged (an image-only profile for a code task): prepare agrees.
            await assert.rejects(
              () => prepare(ctx, { taskFile, profile: name, model, sandbox }),
              (e) => isSpotError(e, report.refusedWith),
            );
            continue;
          }
          const line = (report.checks as { name: string; ok: boolean; detail: string }[])
            .find((c) => c.name === "network");
          const story = `${name} (${variant}, ${sandbox}): doctor said ${JSON.stringify(line)}`;
          assert.ok(line, story);
          let refused: string | null = null;
          try {
            await prepare(ctx, { taskFile, profile: name, model, sandbox });
          } catch (error) {
            if (!isSpotError(error, "PROVIDER_UNREACHABLE")) throw error;
            refused = (error as Error).message;
          }
          assert.equal(line.ok, refused === null, `${story}; prepare refused: ${refused}`);
          seen[refused === null ? "accepted" : "refused"]++;
        }
      }
    }
    assert.ok(seen.refused > 0 && seen.accepted > 0, JSON.stringify(seen));
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
