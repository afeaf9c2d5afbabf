/**
 * Without a queue configured nothing changes: the default path never loads the NATS client. The module graphs
 * Deno loads for the CLI's entry and for `prepare`, `run` and a job's coordinator (static imports: what a verb
 * pays at start-up) hold no `@nats-io` package and no nats backend; only `queue/open.ts` imports it, lazily.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { spawnProcess } from "../../sandbox/spawn.ts";
import { ROOT } from "../helpers.ts";

interface Info {
  roots: string[];
  modules: { specifier: string; dependencies?: { code?: { specifier: string }; isDynamic?: boolean }[] }[];
  redirects?: Record<string, string>;
}

/** What running `entry` loads: its static code imports, followed from the root (type-only imports erased). */
async function graph(entry: string): Promise<string[]> {
  const r = await spawnProcess(
    [Deno.execPath(), "info", "--json", "--config", join(ROOT, "deno.json"), join(ROOT, entry)],
    {
      env: {
        PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin",
        HOME: Deno.env.get("HOME") ?? "/tmp",
        NO_COLOR: "1",
      },
      // The CLI's graph (the MCP SDK, zod, hono) is several megabytes of JSON.
      maxOutputChars: 64_000_000,
    },
  );
  assert.equal(r.exitCode, 0, r.stderr);
  assert.equal(r.stdoutTruncated, false, "deno info's JSON was cut short");
  const info = JSON.parse(r.stdout) as Info;
  const byName = new Map(info.modules.map((m) => [m.specifier, m]));
  const resolve = (s: string) => info.redirects?.[s] ?? s;
  const seen = new Set<string>();
  const pending = info.roots.map(resolve);
  while (pending.length) {
    const s = pending.pop()!;
    if (seen.has(s)) continue;
    seen.add(s);
    for (const d of byName.get(s)?.dependencies ?? []) {
      if (d.code && !d.isDynamic) pending.push(resolve(d.code.specifier));
    }
  }
  return [...seen];
}

for (
  const entry of [
    "cli.ts",
    "table/loop.ts",
    "table/fleet.ts",
    "verbs/prepare.ts",
    "verbs/run.ts",
    "graphs/coordinate.ts",
    "queue/open.ts",
  ]
) {
  Deno.test(`the module graph of ${entry} holds no NATS client`, async () => {
    const loaded = await graph(entry);
    assert.ok(loaded.length > 0);
    const nats = loaded.filter((s) => s.includes("@nats-io") || s.endsWith("/queue/nats.ts"));
    assert.deepEqual(nats, [], `${entry} loads ${nats.join(", ")}`);
  });
}

Deno.test("the nats backend's graph does hold the client (the check above can fail)", async () => {
  const loaded = await graph("queue/nats.ts");
  assert.ok(loaded.some((s) => s.includes("@nats-io")), "no @nats-io module in queue/nats.ts's graph");
});
