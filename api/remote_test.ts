/**
 * The module imported the way a registry serves it: from an http URL (a server on 127.0.0.1 here), so no
 * top-level code may need a file: URL. The import map comes from deno.json, as JSR's publish-time rewrite of
 * bare specifiers would provide it.
 */
import assert from "node:assert/strict";
import { extname, join, normalize } from "node:path";
import { spawnProcess } from "../sandbox/spawn.ts";
import { ROOT, spotEnv } from "../tests/helpers.ts";
import { demoScenario } from "../tests/scenario.ts";

const TYPES: Record<string, string> = { ".ts": "application/typescript", ".json": "application/json" };

function serveRepo(): { url: string; close: () => Promise<void> } {
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, async (req) => {
    const path = normalize(decodeURIComponent(new URL(req.url).pathname));
    const type = TYPES[extname(path)];
    if (!type || path.includes("..")) return new Response("not here", { status: 404 });
    try {
      return new Response(await Deno.readFile(join(ROOT, path)), { headers: { "content-type": type } });
    } catch {
      return new Response("missing", { status: 404 });
    }
  });
  return { url: `http://127.0.0.1:${server.addr.port}`, close: () => server.shutdown() };
}

Deno.test("mod.ts imports from an http URL and its checks and prepare work from there", async () => {
  const served = serveRepo();
  const env = await spotEnv({ selfReview: { enabled: false } });
  try {
    const sc = await demoScenario(env.dir);
    const script = join(env.dir, "use.ts");
    await Deno.writeTextFile(
      script,
      `import * as spot from "${served.url}/mod.ts";
const text = await Deno.readTextFile(${JSON.stringify(sc.taskFile)});
const contract = await spot.checkTaskContract(text);
let bad = "";
try {
  await spot.checkTaskContract(text.replace('"risk": "low"', '"risk": "lowish"'));
} catch (error) {
  bad = spot.isSpotError(error, "CONTRACT_INVALID") ? error.message : String(error);
}
const env = Object.fromEntries(Object.entries(Deno.env.toObject()));
const prepared = await spot.prepare({ task: ${JSON.stringify(sc.taskFile)}, profile: "replay",
  model: ${JSON.stringify(sc.episodeFile)}, sandbox: "none", env, cwd: ${JSON.stringify(sc.repo)} });
console.log(JSON.stringify({ locked: contract.lockedPaths, bad, status: prepared.status }));
`,
    );
    const r = await spawnProcess([
      Deno.execPath(),
      "run",
      "--no-prompt",
      "--allow-read",
      "--allow-write",
      "--allow-env",
      "--allow-run",
      "--allow-sys",
      `--allow-import=127.0.0.1:${new URL(served.url).port}`,
      "--config",
      join(ROOT, "deno.json"),
      "--no-lock",
      script,
    ], { cwd: sc.repo, env: env.env, timeoutMs: 120_000 });
    assert.equal(r.exitCode, 0, r.stderr);
    const out = JSON.parse(r.stdout.trim().split("\n").pop()!);
    assert.deepEqual(out.locked, ["add_test.ts"]);
    assert.match(out.bad, /task\.json:\d+:\d+ risk: /, "a bad contract names its line and column");
    assert.equal(out.status, "prepared");
  } finally {
    await served.close();
    await Deno.remove(env.dir, { recursive: true });
  }
});
