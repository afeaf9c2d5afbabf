/**
 * What the web tests share: a page on loopback that counts who fetched it, a scripted model that calls the
 * CLI's web fetch tool on it and reports what the tool returned as a job result, a job of real CLI tasks
 * run to its end, and the run's network logs.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { makeRepo, type SpotEnv, spotEnv } from "../helpers.ts";
import { type ModelServer, startModelServer } from "../model_server/mod.ts";
import { init, runToEnd, task } from "../jobs/helpers.ts";

export const KEY_ENV = "SPOT_WEB_KEY";

/** A tiny page server on 127.0.0.1: its marker is what a brief can only quote by fetching it. */
export function startPage() {
  const marker = `PAGE-MARKER-${crypto.randomUUID()}`;
  const hits: string[] = [];
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, (r) => {
    hits.push(new URL(r.url).pathname);
    return new Response(`The page says ${marker}.\n`, { headers: { "content-type": "text/plain" } });
  });
  const host = `127.0.0.1:${server.addr.port}`;
  return {
    marker,
    hits,
    host,
    url: `http://${host}/page`,
    port: server.addr.port,
    close: () => server.shutdown(),
  };
}

/** The result every task ends with: a brief quoting the marker the tool returned, or saying nothing came. */
function resultFor(url: string): (toolResult: string) => string {
  return (toolResult) => {
    const quote = toolResult.match(/PAGE-MARKER-[0-9a-f-]{36}/)?.[0] ?? "(nothing was fetched)";
    const result = {
      status: "succeeded",
      summary: "read what the page says",
      brief: `The page says: ${quote}`,
      sources: [{ url, title: "the page", supports: quote }],
    };
    return "Done.\n```json\n" + JSON.stringify(result) + "\n```";
  };
}

export function startScriptedModel(pageUrl: string, tool: string): ModelServer {
  return startModelServer({ fetch: { url: pageUrl, tool, finalTextFor: resultFor(pageUrl) } });
}

export interface WebJob {
  env: SpotEnv;
  repo: string;
  jobId: string;
  done: Awaited<ReturnType<typeof runToEnd>>;
  /** A task's record from `spot job status`. */
  record(id: string): { state: string; reason?: string; runId?: string; result?: { brief?: string } };
  /** A task run's network log (`worker-egress.jsonl`, `worker-web.jsonl`), null when it has none. */
  log(id: string, name: string): Promise<{ decision: string; port?: number; line?: string }[] | null>;
  events(id: string): Promise<{ type: string; message?: string }[]>;
}

/** A profile running `adapter`'s real CLI against the scripted model server at `modelUrl`. */
export function scriptedProfile(
  adapter: string,
  binary: string,
  modelUrl: string,
  more: Record<string, unknown> = {},
): Record<string, unknown> {
  return {
    adapter,
    provider: "scripted",
    model: "scripted-model",
    apiKeyEnv: KEY_ENV,
    baseUrl: `${modelUrl}/v1`,
    providerType: "openai-completions",
    binary,
    ...more,
  };
}

/** A job of `tasks` on profile `p` (the CLI against the scripted model), under bwrap, run to its end. */
export async function runWebJob(
  profile: Record<string, unknown>,
  job: Record<string, unknown>,
): Promise<WebJob> {
  const env = await spotEnv({
    maxConcurrentRuns: 16,
    sandbox: "bwrap",
    selfReview: { enabled: false },
    limits: { workerIdleSeconds: 60, workerTimeoutSeconds: 150 },
    profiles: { p: profile },
  });
  env.env[KEY_ENV] = "sk-web-test-not-a-real-key";
  const repo = await makeRepo({ "README.md": "# web\n" }, env.dir);
  const created = await init(env, repo, { config: { profile: "p", limits: { concurrency: 2 } }, ...job });
  assert.equal(created.code, 0, created.stderr);
  const jobId = String(created.json.jobId);
  const done = await runToEnd(env, repo, jobId);
  // The job's own record keeps each task's result (its brief), which `job status` leaves out.
  const state = JSON.parse(await Deno.readTextFile(join(env.stateDir, "jobs", jobId, "state.json")));
  const record = (id: string) => {
    const found = state.tasks[id];
    assert.ok(found, `no task ${id} in ${JSON.stringify(state.tasks)}`);
    return found as ReturnType<WebJob["record"]>;
  };
  const runDir = (id: string) => join(env.stateDir, "runs", String(record(id).runId));
  return {
    env,
    repo,
    jobId,
    done,
    record,
    log: async (id, name) => {
      const text = await Deno.readTextFile(join(runDir(id), name)).catch(() => null);
      return text === null ? null : text.trim().split("\n").filter(Boolean).map((l) => JSON.parse(l));
    },
    events: async (id) =>
      (await Deno.readTextFile(join(runDir(id), "events.jsonl"))).trim().split("\n").map((l) =>
        JSON.parse(l)
      ),
  };
}

export { task };
