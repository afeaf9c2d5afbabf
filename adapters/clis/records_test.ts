/** Every worker CLI record: listed once, complete, and the facts its adapter is built from and acts on. */
import { deepStrictEqual, equal, ok } from "node:assert/strict";
import { loadAdapter } from "../load.ts";
import type { LaunchPlan, LaunchSpec, WorkerAdapter } from "../types.ts";
import { recordFiles, renderIndex } from "../clis_index.ts";
import { CLI_RECORDS, type CliRecord } from "./mod.ts";

const HERE = new URL("./", import.meta.url);

Deno.test("the index is what `deno task clis` writes from this folder: every record file, listed once", async () => {
  const files = recordFiles([...Deno.readDirSync(HERE)].map((e) => e.name));
  deepStrictEqual(CLI_RECORDS.map((r) => `${r.name}.ts`).sort(), files);
  equal(await Deno.readTextFile(new URL("mod.ts", HERE)), renderIndex(files), "run `deno task clis`");
  for (const record of CLI_RECORDS) {
    const module = await import(new URL(`${record.name}.ts`, HERE).href);
    equal(module[`${record.name}Cli`], record, `${record.name}.ts exports ${record.name}Cli`);
  }
});

Deno.test("a new record file is listed by the generated index, in its place by `listed`", () => {
  const files = recordFiles(["acme.ts", "mod.ts", "record.ts", "acme_test.ts", "pi.ts"]);
  deepStrictEqual(files, ["acme.ts", "pi.ts"]);
  const index = renderIndex(files);
  ok(index.includes('import { acmeCli } from "./acme.ts";') && index.includes("  acmeCli,\n"), index);
});

Deno.test("docs/architecture.md says to add a CLI the way the index test and the task do it", async () => {
  const doc = await Deno.readTextFile(new URL("../../docs/architecture.md", import.meta.url));
  const how = doc.slice(doc.indexOf("- **A worker CLI**"), doc.indexOf("- **A gate**"));
  for (const words of ["one file, `adapters/clis/<cli>.ts`", "`deno task clis`", "`adapters/clis/mod.ts`"]) {
    ok(how.includes(words), `the "A worker CLI" entry says ${words}`);
  }
  const deno = JSON.parse(await Deno.readTextFile(new URL("../../deno.json", import.meta.url)));
  ok(
    String(deno.tasks.clis).endsWith("adapters/clis_index.ts"),
    "deno task clis runs the index generator",
  );
});

Deno.test("each record file is the whole CLI: facts, plan and reader, with no stream reader loaded up front", async () => {
  const listed = new Set<number>();
  for (const r of CLI_RECORDS) {
    equal(typeof r.plan, "function", r.name);
    equal(typeof r.reader, "function", r.name);
    ok(!listed.has(r.listed), `${r.name}: listed ${r.listed} twice`);
    listed.add(r.listed);
    const text = await Deno.readTextFile(new URL(`${r.name}.ts`, HERE));
    const eager = [...text.matchAll(/^(?:import|export)\b[^;]*?"([^"]+)";/gm)].map((m) => m[1]);
    deepStrictEqual(eager.filter((from) => from.includes("streams/")), [], `${r.name}.ts imports a reader`);
  }
});

Deno.test("every record is complete: names, binary, install hint, a route or a reason per setting, network, home", () => {
  for (const r of CLI_RECORDS) {
    ok(/^[a-z][a-z0-9]*$/.test(r.name), `${r.name}: a name that is also a file and an identifier`);
    ok(r.title.length > 0 && r.install.length > 0 && r.defaultBinary.length > 0, r.name);
    for (const key of ["reasoningEffort", "maxContextSize", "maxTurns"] as const) {
      const route = r.settings[key];
      ok(route.via === "none" ? route.why.length > 0 : route.name.length > 0, `${r.name}.settings.${key}`);
    }
    ok(r.sessions.resumes || r.sessions.why.length > 20, `${r.name}: why it cannot resume`);
    if (!("offline" in r.network)) {
      for (const host of r.network.hosts) ok(/^[a-z0-9.-]+:\d+$/.test(host), `${r.name}: ${host}`);
      ok(r.network.takesBaseUrl || r.network.hosts.length > 0, `${r.name}: no way to reach a provider`);
    }
    for (const home of r.homeFiles) {
      ok(!home.to.startsWith("/") && !home.to.split("/").includes(".."), `${r.name}: ${home.to} leaves HOME`);
      ok(home.config.length + home.login.length > 0, `${r.name}: ${home.to} copies nothing`);
    }
    for (const [name, profile] of Object.entries(r.profiles ?? {})) {
      equal(profile.adapter, r.name, `${r.name} ships profile ${name} of another CLI`);
    }
  }
  equal(
    CLI_RECORDS.filter((r) => r.builtIn).length,
    1,
    "one built-in worker (its profile is always present)",
  );
});

Deno.test("no two records ship the same profile or the same provider endpoint (one would hide the other)", () => {
  const seen = new Map<string, string>();
  for (const r of CLI_RECORDS) {
    for (
      const name of [...Object.keys(r.profiles ?? {}).map((p) => `profile ${p}`)].concat(
        Object.keys(r.endpoints ?? {}).map((e) => `endpoint ${e}`),
      )
    ) {
      ok(!seen.has(name), `${name} in both ${seen.get(name)} and ${r.name}`);
      seen.set(name, r.name);
    }
  }
});

function spec(r: CliRecord, extra: Partial<LaunchSpec> = {}): LaunchSpec {
  return {
    runId: "r1",
    phase: "run",
    worktree: "/w/tree",
    runDir: "/w/run",
    homeDir: "/w/run/home",
    binary: `/opt/bin/${r.defaultBinary}`,
    profile: { name: "p", adapter: r.name, provider: "acme", model: "/w/episode.jsonl" },
    promptFile: "/w/run/prompt.md",
    prompt: "Fix it",
    baseEnv: { PATH: "/usr/bin" },
    ...extra,
  };
}

/** Everything a plan hands its CLI, as one string to search. */
const everything = (p: LaunchPlan) =>
  [p.argv.join(" "), JSON.stringify(p.env), ...p.files.map((f) => f.content)].join("\n");

async function adapterOf(r: CliRecord): Promise<WorkerAdapter> {
  const adapter = await loadAdapter(r.name);
  ok(adapter, `adapters/clis/${r.name}.ts: no adapter`);
  return adapter;
}

Deno.test("every adapter is built from its record: the same name, binary, detection, read-only rule, web tools", async () => {
  for (const r of CLI_RECORDS) {
    const a = await adapterOf(r);
    equal(a.name, r.name);
    equal(a.defaultBinary, r.defaultBinary, r.name);
    equal(a.detect, r.detect, r.name);
    equal(a.selfReviewReadOnly, r.selfReviewReadOnly, r.name);
    equal(a.webTools, r.webTools, r.name);
  }
});

Deno.test("a record's network, web tools and sessions are what its launch plan does", async () => {
  const url = "http://127.0.0.1:9/v1";
  for (const r of CLI_RECORDS) {
    const a = await adapterOf(r);
    const keyed = { ...spec(r).profile, baseUrl: url, apiKeyEnv: "ACME_KEY" };
    const withUrl = everything(a.plan({ ...spec(r), profile: keyed, apiKey: "sk-acme" }));
    // The forwarder is the base URL: a CLI said to take one and then ignoring it would bypass it.
    const takes = !("offline" in r.network) && r.network.takesBaseUrl;
    equal(withUrl.includes("127.0.0.1:9"), takes, `${r.name}: takesBaseUrl is ${takes}`);
    if (r.webTools) {
      const off = everything(a.plan(spec(r)));
      const on = everything(a.plan({ ...spec(r), web: true }));
      ok(on !== off, `${r.name}: web tools named, but a research turn's plan is the same`);
    }
    const resumed = everything(a.plan({ ...spec(r), resumeSession: "sess-42" }));
    equal(resumed.includes("sess-42"), r.sessions.resumes, `${r.name}: sessions.resumes`);
  }
});
