import assert from "node:assert/strict";
import { isSpotError } from "../errors.ts";
import { Config } from "../schemas/config.ts";
import { fileURLToPath } from "node:url";
import type { SpotContext } from "../store/context.ts";
import { pickerMode, routeForPrepare, type RouteOptions } from "./route.ts";
import { adjustForQoder } from "./qoder_dispatch.ts";

const ROWS: [string, RouteOptions, { interactive: boolean; caller: string }, "worker" | "model" | null][] = [
  [
    "a person at a terminal with no flags gets the picker",
    {},
    { interactive: true, caller: "cli" },
    "worker",
  ],
  ["no terminal means no prompt", {}, { interactive: false, caller: "cli" }, null],
  ["a parent agent skips the prompt", {}, { interactive: true, caller: "codex" }, null],
  ["--profile skips the prompt", { profile: "p" }, { interactive: true, caller: "cli" }, null],
  ["--model skips the prompt", { model: "m" }, { interactive: true, caller: "cli" }, null],
  ["--select-worker forces it under a parent agent", { selectWorker: true }, {
    interactive: true,
    caller: "claude-code",
  }, "worker"],
  [
    "--select-model asks for the model only",
    { selectModel: true },
    { interactive: true, caller: "cli" },
    "model",
  ],
];

for (const [what, options, facts, expected] of ROWS) {
  Deno.test(`pickerMode(): ${what}`, () => assert.equal(pickerMode(options, facts), expected));
}

Deno.test("pickerMode() refuses --select-worker without a terminal instead of hanging", () => {
  assert.throws(
    () => pickerMode({ selectWorker: true }, { interactive: false, caller: "cli" }),
    (e) => isSpotError(e, "CLI_USAGE"),
  );
});

Deno.test("adjustForQoder() resolves a price alias and snaps effort and context, saying so", async () => {
  const tmp = await Deno.makeTempDir();
  const profile = Config.parse({
    profiles: {
      q: {
        adapter: "qoder",
        provider: "q",
        model: "free",
        reasoningEffort: "medium",
        maxContextSize: 300_000,
      },
    },
  }).profiles.q;
  const ctx = { paths: { cacheRoot: tmp } as never, env: () => undefined };
  const { settings, warnings } = await adjustForQoder(ctx, { model: "free", profile });
  assert.equal(settings.model, "DeepSeek-Flash");
  assert.equal(settings.resolvedFrom, "free");
  assert.equal(settings.reasoningEffort, "high");
  assert.equal(settings.maxContextSize, 400_000);
  assert.equal(warnings.length, 3, warnings.join("\n"));
  const other = await adjustForQoder(ctx, { model: "m", profile: { ...profile, adapter: "pi" } });
  assert.deepEqual(other.warnings, [], "other adapters are left alone");
  await Deno.remove(tmp, { recursive: true });
});

function routeCtx(cacheRoot: string, vars: Record<string, string>, config: Config) {
  return { config, paths: { cacheRoot }, env: (n: string) => vars[n] } as unknown as SpotContext;
}

const PI_CONFIG = Config.parse({
  profiles: {
    a: { adapter: "pi", provider: "p", model: "a-model", costTier: "cheap" },
    b: { adapter: "pi", provider: "p", model: "b-model", costTier: "standard" },
  },
});
const TASK = {
  schemaVersion: 1 as const,
  goal: "Fix the add function",
  allowedPaths: ["a.ts"],
  forbiddenPaths: [],
  lockedPaths: [],
  constraints: [],
  acceptanceCriteria: ["works"],
  verification: [{ argv: ["true"], timeoutSeconds: 1 }],
  requiredCapabilities: ["text" as const, "code" as const],
  risk: "low" as const,
};
const FAKE_PI = fileURLToPath(new URL("../tests/fixtures/fake-pi", import.meta.url));

Deno.test("routeForPrepare() with --select-model keeps the routed profile and takes the picked model", async () => {
  const tmp = await Deno.makeTempDir();
  const seen: string[][] = [];
  const r = await routeForPrepare(routeCtx(tmp, { PI_WORKER_PI_BIN: FAKE_PI }, PI_CONFIG), TASK, {
    selectModel: true,
    interactive: true,
    pick: (choices) => {
      seen.push(choices.map((c) => c.key));
      return Promise.resolve(choices[1]);
    },
  });
  assert.deepEqual(seen, [["pi a-model", "pi b-model"]]);
  assert.equal(r.choice.name, "a");
  assert.equal(r.choice.model, "b-model");
  await Deno.remove(tmp, { recursive: true });
});

Deno.test("routeForPrepare() turns a cancelled pick into CANCELLED", async () => {
  const tmp = await Deno.makeTempDir();
  const ctx = routeCtx(tmp, { PI_WORKER_PI_BIN: FAKE_PI }, PI_CONFIG);
  await assert.rejects(
    routeForPrepare(ctx, TASK, { interactive: true, pick: () => Promise.resolve(null) }),
    (e) => isSpotError(e, "CANCELLED"),
  );
  await Deno.remove(tmp, { recursive: true });
});

Deno.test("routeForPrepare() routes as usual when no installed CLI has a profile to offer", async () => {
  const tmp = await Deno.makeTempDir();
  const ctx = routeCtx(tmp, { PATH: "" }, PI_CONFIG);
  const r = await routeForPrepare(ctx, TASK, {
    interactive: true,
    pick: () => Promise.reject(new Error("must not prompt")),
  });
  assert.equal(r.choice.routing.profileSource, "difficulty");
  await assert.rejects(
    routeForPrepare(ctx, TASK, { interactive: true, selectWorker: true }),
    (e) => isSpotError(e, "NO_ROUTABLE_PROFILE"),
  );
  await Deno.remove(tmp, { recursive: true });
});
