/**
 * The loop's verbs start without zod (docs/performance.md, issue 30): a value imported from a zod schema
 * module (say `TERMINAL` from schemas/run_state.ts instead of schemas/constants.ts) puts zod's ~60 ms of CPU
 * back into every verb. Walks each verb module's start-up graph (static imports that are not type-only; the
 * lazily loaded modules of base/lazy.ts are not in it) as `deno info` reports it.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { spawnProcess } from "../sandbox/spawn.ts";
import { ROOT } from "../tests/helpers.ts";

const VERBS = [
  "verbs/prepare.ts",
  "verbs/run.ts",
  "verbs/verify.ts",
  "verbs/approve.ts",
  "verbs/integrate.ts",
];

interface Info {
  modules: {
    specifier: string;
    dependencies?: { code?: { specifier: string }; isTypeOnly?: boolean; isDynamic?: boolean }[];
  }[];
}

/**
 * Modules no loop verb may load at start-up: zod (~60 ms of CPU), adapters/mod.ts, which builds every CLI's
 * adapter with its stream reader (~50 ms; a run needs only its own, through adapters/load.ts), and the macOS
 * sandbox (its profile writer and self-test, ~31 KB: loaded by isolation/run_sandbox.ts only for Seatbelt).
 */
const HEAVY = (specifier: string) =>
  specifier.includes("zod") || specifier.endsWith("/adapters/mod.ts") ||
  /\/(sandbox\/backends|isolation)\/seatbelt[^/]*\.ts$/.test(specifier);

/** The chain from `root` to the first heavy module in its start-up graph, or null. */
function pathToHeavy(info: Info, root: string): string[] | null {
  const deps = new Map(info.modules.map((m) => [m.specifier, m.dependencies ?? []]));
  const from = new Map<string, string | null>([[root, null]]);
  const queue = [root];
  while (queue.length > 0) {
    const at = queue.shift()!;
    for (const d of deps.get(at) ?? []) {
      const next = d.code?.specifier;
      if (!next || d.isTypeOnly || d.isDynamic || from.has(next)) continue;
      from.set(next, at);
      if (HEAVY(next)) {
        const chain = [next];
        for (let k: string | null = at; k; k = from.get(k) ?? null) {
          chain.push(k.replace(`file://${ROOT}/`, ""));
        }
        return chain;
      }
      queue.push(next);
    }
  }
  return null;
}

for (const verb of [...VERBS, "agents/start.ts"]) {
  Deno.test(`${verb} starts without zod, every adapter or the macOS sandbox`, async () => {
    const path = join(ROOT, verb);
    const r = await spawnProcess([
      Deno.execPath(),
      "info",
      "--json",
      "--config",
      join(ROOT, "deno.json"),
      path,
    ], {
      env: Deno.env.toObject(),
      maxOutputChars: 50_000_000,
    });
    assert.equal(r.exitCode, 0, r.stderr);
    const chain = pathToHeavy(JSON.parse(r.stdout) as Info, `file://${path}`);
    assert.equal(chain, null, `a heavy module is loaded at start-up: ${chain?.join(" <- ")}`);
  });
}
