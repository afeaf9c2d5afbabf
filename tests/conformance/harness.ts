/**
 * The conformance suite's engine: one real worker CLI, driven through spot
 * (prepare → run → verify) against the scripted model server, once per
 * scenario. Each test checks the failure class, the usage totals against
 * what the server reported, the file the worker's own write tool made, the
 * time bound, and that no process of the run survived. The raw stream is
 * kept under test-output/streams/ so a format change shows up as a diff.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import type { ProviderType } from "../../adapters/types.ts";
import { makeRepo, ROOT, spot, spotEnv, writeJson } from "../helpers.ts";
import { type ModelServer, type Scenario, startModelServer } from "../model_server/mod.ts";
import { survivors } from "./processes.ts";
import { availability } from "./workers.ts";

const KEY_ENV = "SPOT_CONFORMANCE_KEY";
const KEY = "sk-conformance-not-a-real-key";
const FILE = "hello.txt";
const CONTENT = "hello from the scripted model\n";
export const STREAMS_DIR = join(ROOT, "test-output", "streams");

export interface Expectation {
  /** null: the turn succeeds and verify reaches review. */
  code: string | null;
  status: "reviewing" | "blocked" | "failed";
  attempts: number;
}

export const EXPECTED: Record<string, Expectation> = {
  success: { code: null, status: "reviewing", attempts: 1 },
  "401": { code: "auth", status: "blocked", attempts: 1 },
  "429": { code: "quota", status: "failed", attempts: 1 },
  // Transient: spot retries once, then fails with the class.
  "429rl": { code: "rate_limit", status: "failed", attempts: 2 },
  "404": { code: "model_not_found", status: "blocked", attempts: 1 },
  silent: { code: "no_progress", status: "failed", attempts: 2 },
};

export interface CliCase {
  cli: string;
  model: string;
  providerType: ProviderType;
  /** The base URL a user would write for this protocol, given the server's root URL. */
  baseUrl: (root: string) => string;
  /** The watchdog for this CLI: longer than its own startup, which prints nothing. */
  idleSeconds: number;
  /** A longer watchdog for scenarios where the CLI retries silently before it reports. */
  idleSecondsFor?: Partial<Record<Scenario, number>>;
  /** Upper bound of one `spot run`, per scenario; the wall clock is set to it too. */
  boundSeconds: Partial<Record<Scenario, number>> & { default: number };
  scenarios?: Scenario[];
  /** Where a CLI honestly cannot meet the default expectation, the reason is written beside it. */
  expect?: Partial<Record<Scenario, Expectation>>;
  maxRetries?: number;
  requestTimeoutSeconds?: number;
  /** More profile fields (reasoningEffort, limits, ...), for tests of what reaches the provider. */
  profile?: Record<string, unknown>;
}

const ALL: Scenario[] = ["success", "401", "429", "429rl", "404", "silent"];

async function readJson<T>(path: string): Promise<T> {
  return JSON.parse(await Deno.readTextFile(path)) as T;
}

async function readLines<T>(path: string): Promise<T[]> {
  const text = await Deno.readTextFile(path).catch(() => "");
  return text.split("\n").filter((l) => l.trim() !== "").map((l) => JSON.parse(l) as T);
}

async function fileText(path: string): Promise<string | null> {
  return await Deno.readTextFile(path).catch(() => null);
}

interface Event {
  type: string;
  at: string;
  step?: string;
}

/** For every worker step: seconds from its last sign of life to its end. */
function silences(events: Event[]): number[] {
  const out: number[] = [];
  let last = 0;
  for (const e of events) {
    const at = Date.parse(e.at);
    if (e.type === "step_start" && e.step === "worker") last = at;
    else if (e.type.startsWith("worker_")) last = Math.max(last, at);
    else if (e.type === "step_end" && e.step === "worker") out.push((at - last) / 1000);
  }
  return out;
}

async function contract(dir: string): Promise<{ repo: string; taskFile: string }> {
  const repo = await makeRepo({ "README.md": "# conformance\n" }, dir);
  const taskFile = join(dir, "task.json");
  await writeJson(taskFile, {
    schemaVersion: 1,
    goal: `Create ${FILE} containing a greeting`,
    allowedPaths: [FILE],
    forbiddenPaths: [],
    lockedPaths: [],
    constraints: [],
    acceptanceCriteria: [`${FILE} exists and greets`],
    verification: [{ argv: ["grep", "-q", "scripted model", FILE], timeoutSeconds: 30 }],
    requiredCapabilities: ["text", "code"],
    risk: "low",
    difficulty: "low",
    domain: "docs",
  });
  return { repo, taskFile };
}

async function scenarioRun(
  c: CliCase,
  binary: string,
  scenario: Scenario,
  server: ModelServer,
  egress: "auto" | "allowlist" = "auto",
): Promise<void> {
  const expected = c.expect?.[scenario] ?? EXPECTED[scenario];
  const bound = c.boundSeconds[scenario] ?? c.boundSeconds.default;
  const idle = c.idleSecondsFor?.[scenario] ?? c.idleSeconds;
  const env = await spotEnv({
    defaultProfile: "conformance",
    selfReview: { enabled: false },
    limits: { workerIdleSeconds: idle, workerTimeoutSeconds: bound },
    profiles: {
      conformance: {
        adapter: c.cli,
        provider: "scripted",
        model: c.model,
        apiKeyEnv: KEY_ENV,
        baseUrl: c.baseUrl(server.url),
        providerType: c.providerType,
        binary,
        egress,
        ...(c.maxRetries !== undefined ? { maxRetries: c.maxRetries } : {}),
        ...(c.requestTimeoutSeconds !== undefined ? { requestTimeoutSeconds: c.requestTimeoutSeconds } : {}),
        ...c.profile,
      },
    },
  });
  env.env[KEY_ENV] = KEY;
  try {
    const { repo, taskFile } = await contract(env.dir);
    const prepared = await spot(env, repo, "prepare", "--task", taskFile, "--profile", "conformance");
    assert.equal(prepared.code, 0, prepared.stderr);
    const id = String(prepared.json.runId);
    const runDir = join(env.stateDir, "runs", id);
    const before = await readJson<{ worktreePath: string }>(join(runDir, "state.json"));
    server.workdir = before.worktreePath;

    const started = Date.now();
    const run = await spot(env, repo, "run", "--id", id);
    const seconds = (Date.now() - started) / 1000;
    await Deno.mkdir(STREAMS_DIR, { recursive: true });
    await Deno.copyFile(join(runDir, "worker-stream.jsonl"), join(STREAMS_DIR, `${c.cli}-${scenario}.jsonl`))
      .catch(() => Deno.writeTextFile(join(STREAMS_DIR, `${c.cli}-${scenario}.jsonl`), ""));

    const state = await readJson<Record<string, unknown>>(join(runDir, "state.json"));
    const failure = state.failure as { code: string; message: string } | null;
    const story = `${c.cli} ${scenario}: run exited ${run.code} after ${seconds.toFixed(1)}s, ` +
      `failure ${JSON.stringify(failure)}, stderr ${run.stderr.slice(-600)}`;
    assert.ok(seconds < bound + 10, `${story}: over the ${bound}s bound`);
    assert.equal(failure?.code ?? null, expected.code, story);
    assert.equal(state.workerAttempts, expected.attempts, story);
    assert.deepEqual(state.workerUsage, server.usage(), `${story}: usage differs from what the server sent`);
    assert.deepEqual(survivors(join(runDir, "homes")), [], `${story}: processes of the run survived`);

    const steps = await readLines<{ argv: string[] }>(join(runDir, "steps.jsonl"));
    assert.ok(!JSON.stringify(steps).includes(KEY), "the key never appears on a step's argv");
    const keyed = server.requests.filter((r) => r.dialect !== null);
    assert.ok(keyed.every((r) => r.key === KEY), `${story}: the key did not reach the provider by env`);

    if (egress === "allowlist") {
      // Every request went out through the proxy, to the one host:port the profile's baseUrl names.
      // The model requests went out through the proxy, to the one host:port the profile's baseUrl names; what
      // else the CLI tried on its own (update checks, plugin downloads) was refused and recorded.
      const logFile = join(runDir, "worker-egress.jsonl");
      await Deno.copyFile(logFile, join(STREAMS_DIR, `${c.cli}-allowlist-egress.jsonl`)).catch(() => {});
      const log = await readLines<{ decision: string; port?: number }>(logFile);
      const allowed = log.filter((l) => l.decision === "allowed");
      const port = Number(new URL(server.url).port);
      const said = `${story}: proxy log ${JSON.stringify(log)}`;
      assert.ok(allowed.length > 0 && allowed.every((l) => l.port === port), said);
    }
    const written = await fileText(join(before.worktreePath, FILE));
    if (expected.code === null) {
      assert.equal(run.code, 0, story);
      assert.equal(written, CONTENT, `${story}: the worker did not write ${FILE} with its own tool`);
      const verify = await spot(env, repo, "verify", "--id", id);
      assert.equal(verify.code, 0, `${story}; verify: ${verify.stderr}`);
      assert.equal(verify.json.status, expected.status, JSON.stringify(verify.json));
    } else {
      assert.equal(written, null, `${story}: a failed turn wrote ${FILE}`);
      assert.equal(state.status, expected.status, story);
      if (scenario === "silent") {
        for (const quiet of silences(await readLines<Event>(join(runDir, "events.jsonl")))) {
          assert.ok(quiet <= idle + 5, `${story}: killed ${quiet}s after its last sign of life`);
        }
      }
    }
  } finally {
    await Deno.remove(env.dir, { recursive: true }).catch(() => {});
  }
}

/** Registers one test per scenario for a CLI. */
export function conformanceSuite(c: CliCase): void {
  const found = availability(c.cli);
  for (const scenario of c.scenarios ?? ALL) {
    const name = `${c.cli} through spot: ${describe(scenario, c.expect?.[scenario] ?? EXPECTED[scenario])}`;
    if ("ignore" in found) {
      Deno.test({ name: `${name} (ignored: ${found.reason})`, ignore: true, fn() {} });
      continue;
    }
    Deno.test({
      name,
      sanitizeResources: false,
      sanitizeOps: false,
      async fn() {
        if ("fail" in found) throw new Error(found.fail);
        const server = startModelServer({ scenario, file: FILE, content: CONTENT });
        try {
          await scenarioRun(c, found.binary, scenario, server);
        } finally {
          await server.close();
        }
      },
    });
  }
  if ("ignore" in found) return;
  Deno.test({
    name: `${c.cli} through the allowlist proxy (its own URL and key, HTTPS_PROXY): the success scenario`,
    sanitizeResources: false,
    sanitizeOps: false,
    async fn() {
      if ("fail" in found) throw new Error(found.fail);
      const server = startModelServer({ scenario: "success", file: FILE, content: CONTENT });
      try {
        await scenarioRun(c, found.binary, "success", server, "allowlist");
      } finally {
        await server.close();
      }
    },
  });
}

/**
 * One success run with the case's extra profile settings; `check` then reads the model requests the
 * server recorded (their bodies), to show a setting reached the provider.
 */
export function settingsTest(
  name: string,
  c: CliCase,
  check: (requests: ModelServer["requests"]) => void,
): void {
  const found = availability(c.cli);
  if ("ignore" in found) {
    Deno.test({ name: `${name} (ignored: ${found.reason})`, ignore: true, fn() {} });
    return;
  }
  Deno.test({
    name,
    sanitizeResources: false,
    sanitizeOps: false,
    async fn() {
      if ("fail" in found) throw new Error(found.fail);
      const server = startModelServer({ scenario: "success", file: FILE, content: CONTENT });
      try {
        await scenarioRun(c, found.binary, "success", server);
        check(server.requests.filter((r) => r.dialect !== null));
      } finally {
        await server.close();
      }
    },
  });
}

function describe(scenario: Scenario, expected: Expectation): string {
  switch (scenario) {
    case "success":
      return "the worker writes the file with its own tool, usage matches the server, and verify reaches review";
    case "silent":
      return "a silent provider is killed within the idle limit and classified no_progress, leaving no process";
    default:
      return `a ${scenario} provider error ends as ${expected.code} with the server's usage`;
  }
}
