/**
 * Named agents on the live dashboard, in a real headless Chromium: a run
 * started by `spot agent start` shows its agent's name and poll line, and
 * the line follows the agent from RUNNING to its settled line without a
 * reload. The dashboard reads the line without settling anything: only the
 * test's own `spot agent poll` persists it.
 */
import assert from "node:assert/strict";
import { Config } from "../../schemas/config.ts";
import { startServer } from "../../serve/server.ts";
import { resolvePaths } from "../../store/paths.ts";
import { RunIndex } from "../../store/run_index.ts";
import { pollUntilSettled, slowScenario, startArgs } from "../agents/agent_helpers.ts";
import { spot, spotEnv } from "../helpers.ts";
import { browserMissing, launch, watchForScripts } from "./browser.ts";

async function until(check: () => Promise<boolean>, ms = 20_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`condition not met within ${ms} ms`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

Deno.test({
  name: "spot serve shows a run's agent by name with its poll line, live",
  ignore: browserMissing(),
  sanitizeOps: false,
  sanitizeResources: false,
  async fn() {
    const env = await spotEnv();
    // Long enough that a cold browser on a loaded machine still finds the agent running.
    const sc = await slowScenario(env.dir, 10_000);
    const started = await spot(env, sc.repo, ...startArgs("fix-add", sc));
    assert.equal(started.code, 0, started.stderr);
    const runId = String(started.json.runId);
    const paths = resolvePaths((name) => env.env[name]);
    const server = startServer({
      paths,
      config: Config.parse({}),
      env: (name) => env.env[name],
      index: RunIndex.open(paths),
      host: "127.0.0.1",
      port: 0,
      pollMs: 100,
    });
    const browser = await launch();
    try {
      const page = await browser.context.newPage();
      const injected = await watchForScripts(page);
      await page.goto(server.url);
      const agent = page.locator(`tr[data-run="${runId}"] .agent[data-agent="fix-add"]`);
      await agent.waitFor({ timeout: 20_000 });
      assert.equal(await agent.locator(".agent-name").textContent(), "agent fix-add");
      assert.match(await agent.locator(".agent-line").textContent() ?? "", /^RUNNING /);
      // The dashboard changed nothing: no status line was persisted by looking.
      await assert.rejects(Deno.stat(`${paths.stateRoot}/agents/fix-add/status`));
      const settled = await pollUntilSettled(env, sc.repo, "fix-add");
      assert.match(settled, /^STATUS=OK /);
      await page.evaluate(() => (globalThis as { __same?: boolean }).__same = true);
      await until(async () => (await agent.locator(".agent-line").textContent()) === settled);
      assert.equal(await page.evaluate(() => (globalThis as { __same?: boolean }).__same), true, "reloaded");
      const api =
        await (await fetch(`${server.url}api/runs`, { headers: { host: new URL(server.url).host } }))
          .json();
      const run = api.runs.find((r: { runId: string }) => r.runId === runId);
      assert.deepEqual(run.agents, [{ name: "fix-add", runId, line: settled }]);
      assert.deepEqual(await injected(), []);
    } finally {
      await browser.close();
      await server.stop();
      await spot(env, sc.repo, "agent", "stop", "fix-add");
    }
  },
});
