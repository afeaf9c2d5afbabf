/**
 * A worker CLI is declared once: outside its own files (its record in adapters/clis/, its adapter, its stream
 * reader, files named after it), no source file lists CLIs or names one, except the few below, each for a
 * reason that is not "this file keeps a list of CLIs". Adding a CLI therefore touches none of them.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { ROOT } from "../helpers.ts";
import { cliNames, codeOnly, isCliFile, namesIn } from "./names.ts";

const PARENT = "names a parent agent (PARENT_AGENT, the parent meters), not a worker CLI";
const BUILT_IN = "the built-in replay worker, whose model is an episode file and whose profile always exists";
const PI_MODELS = "pi's own models.json, which declares providers spot reads for their endpoints and keys";

/** file → the names it may write, and why. */
const ELSEWHERE: Record<string, { names: string[]; why: string }> = {
  "routing/caller.ts": { names: ["pi", "codex", "claude", "trae"], why: PARENT },
  "schemas/config.ts": { names: ["pi", "codex", "trae"], why: `${PARENT}; pi is also the default adapter` },
  "schemas/gen/config.ts": { names: ["codex"], why: PARENT },
  "schemas/run_state.ts": { names: ["codex", "trae"], why: PARENT },
  "serve/views/runs.ts": { names: ["codex", "trae"], why: PARENT },
  "usage/parent/meter.ts": { names: ["codex", "trae"], why: PARENT },
  "usage/parent/usage.ts": { names: ["codex"], why: PARENT },
  "verbs/skill_install.ts": { names: ["codex", "claude"], why: PARENT },
  "table/host.ts": { names: ["codex"], why: `${PARENT} (where \`spot skill install --for\` puts the skill)` },
  "store/legacy_run.ts": { names: ["pi"], why: "a run the original wrote has no adapter: it ran pi" },
  "config/legacy.ts": {
    names: ["kimi", "qoder", "gemini"],
    why: "the original's config file, a fixed format (its kimi provider types, its qoder-only keys)",
  },
  "config/parse.ts": { names: ["replay"], why: BUILT_IN },
  "usage/format.ts": { names: ["replay"], why: BUILT_IN },
  "verbs/prepare.ts": { names: ["replay"], why: BUILT_IN },
  "routing/select_profile.ts": { names: ["replay"], why: BUILT_IN },
  "doctor/credential_hint.ts": { names: ["replay"], why: BUILT_IN },
  "fleet/send.ts": {
    names: ["replay"],
    why: `${BUILT_IN}: its episode travels with the task to an executor`,
  },
  "fleet/import.ts": { names: ["replay"], why: `${BUILT_IN}: the origin keeps its own episode's path` },
  "serve/connections.ts": {
    names: ["pi", "replay"],
    why: "the dashboard always shows the seed's worker and the built-in one",
  },
  "doctor/doctor.ts": { names: ["pi"], why: PI_MODELS },
  "isolation/worker_network.ts": { names: ["pi"], why: PI_MODELS },
  "providers/network_plan.ts": { names: ["pi"], why: PI_MODELS },
};

async function sourceFiles(dir = ""): Promise<string[]> {
  const out: string[] = [];
  for await (const e of Deno.readDir(join(ROOT, dir))) {
    const rel = dir ? `${dir}/${e.name}` : e.name;
    if (e.isDirectory) {
      if (![".git", ".workers", "tests", "bench", "node_modules", "test-output", "dist"].includes(e.name)) {
        out.push(...await sourceFiles(rel));
      }
    } else if (rel.endsWith(".ts") && !rel.endsWith("_test.ts")) out.push(rel);
  }
  return out.sort();
}

Deno.test("no source file outside a CLI's own files names a worker CLI, but the few that name a parent or a special worker", async () => {
  const names = [...cliNames().keys()];
  const found: Record<string, string[]> = {};
  for (const file of await sourceFiles()) {
    if (isCliFile(file)) continue;
    const hits = namesIn(await Deno.readTextFile(join(ROOT, file)), names);
    if (hits.length > 0) found[file] = hits.sort();
  }
  const allowed = Object.fromEntries(Object.entries(ELSEWHERE).map(([f, a]) => [f, [...a.names].sort()]));
  assert.deepEqual(found, allowed);
});

Deno.test("the scan sees a list, a table key and a comparison, and not a comment or a regular expression", () => {
  const names = ["kimi", "qoder", "pi"];
  assert.deepEqual(namesIn('const ALL = ["kimi", "qoder"];', names), ["kimi", "qoder"]);
  assert.deepEqual(namesIn("const HOSTS = {\n  kimi: [],\n};", names), ["kimi"]);
  assert.deepEqual(namesIn("if (p.adapter === 'pi') go();", names), ["pi"]);
  assert.deepEqual(namesIn('// the "kimi" CLI\n/* "qoder" */ const x = /"pi"/;', names), []);
  assert.deepEqual(namesIn('const glob = "**/*.ts"; const y = "kimi";', names), ["kimi"]);
  assert.equal(codeOnly('a = "x // y"; // gone').trim(), 'a = "x // y";');
});

Deno.test("a CLI's own files are its record, adapter, stream readers and files named after it", () => {
  for (const f of ["adapters/clis/kimi.ts", "adapters/kimi.ts", "adapters/streams/json_result.ts"]) {
    assert.ok(isCliFile(f), f);
  }
  for (const f of ["registry/qoder_catalog.ts", "routing/qoder_dispatch.ts", "replay/replay_worker.ts"]) {
    assert.ok(isCliFile(f), f);
  }
  for (const f of ["adapters/mod.ts", "adapters/load.ts", "registry/detect.ts", "providers/cli_hosts.ts"]) {
    assert.ok(!isCliFile(f), f);
  }
});
