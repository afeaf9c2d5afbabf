/**
 * The verb table against its faces, both ways: every verb is a CLI command with exactly its fields as options
 * and positionals, an MCP tool with exactly its fields as described properties, a library function of
 * mod.ts, and a section of the generated command reference; and nothing any face offers is missing from the
 * table. Adding a verb or an option anywhere but the table fails here.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
// @ts-types="@modelcontextprotocol/sdk/client/index"
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
// @ts-types="@modelcontextprotocol/sdk/inMemory"
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import * as lib from "../mod.ts";
import { COMMANDS } from "../cli/table.ts";
import type { CommandSpec } from "../cli/spec.ts";
import { optionShape } from "../cli/spec.ts";
import { VIEWS } from "../cli/views.ts";
import { HOST_NAMES } from "../cli/host.ts";
import { renderVerbFiles } from "../api/emit.ts";
import { createMcpServer } from "../mcp/server.ts";
import { ERROR_CODES } from "../errors.ts";
import {
  type AnyVerb,
  cliSpelling,
  COMMON_ERRORS,
  type Field,
  fieldOn,
  isPositional,
  libName,
  MODULE_OF,
  TABLE_MODULES,
  toolName,
  verbOn,
  VERBS,
} from "../table/mod.ts";
import { ROOT } from "../tests/helpers.ts";

const verbs = VERBS as readonly AnyVerb[];
const fieldsOf = (v: AnyVerb) => Object.entries(v.input as Record<string, Field>);

/** Every command of the CLI by its words. */
function commands(table: CommandSpec[] = COMMANDS, prefix: string[] = []): Map<string, CommandSpec> {
  const out = new Map<string, CommandSpec>();
  for (const c of table) {
    const path = [...prefix, c.name];
    if (c.commands) commands(c.commands, path).forEach((v, k) => out.set(k, v));
    else out.set(path.join(" "), c);
  }
  return out;
}

Deno.test("every verb on the CLI is a command with exactly its fields, and every command is a verb", () => {
  const cli = commands();
  const onCli = verbs.filter((v) => verbOn(v, "cli"));
  assert.deepEqual([...cli.keys()].sort(), onCli.map((v) => v.name).sort());
  for (const v of onCli) {
    const c = cli.get(v.name)!;
    assert.equal(c.help, v.summary, v.name);
    assert.equal(c.hidden === true, v.hidden === true, `${v.name}: hidden`);
    assert.equal(c.alias, v.alias, `${v.name}: alias`);
    const fields = fieldsOf(v).filter(([, f]) => fieldOn(f, "cli"));
    const options = fields.filter(([k, f]) => !isPositional(k, f)).map(([k, f]) => cliSpelling(k, f));
    assert.deepEqual((c.options ?? []).map((o) => o.flags), options, `${v.name}: options`);
    const args = fields.filter(([k, f]) => isPositional(k, f)).map(([k, f]) => cliSpelling(k, f));
    assert.deepEqual(
      (c.args ?? []).map((a) => `<${a.name}${a.variadic ? "..." : ""}>`),
      args,
      `${v.name}: positionals`,
    );
    for (const o of c.options ?? []) assert.ok(optionShape(o.flags).long.startsWith("--"), o.flags);
  }
});

Deno.test("every verb over MCP is a tool with exactly its fields, each described, and every tool is a verb", async () => {
  const server = createMcpServer({ signal: new AbortController().signal, cwd: ROOT, warn: () => {} });
  const client = new Client({ name: "faces", version: "1" });
  const [a, b] = InMemoryTransport.createLinkedPair();
  await server.connect(a);
  await client.connect(b);
  try {
    const { tools } = await client.listTools();
    const onMcp = verbs.filter((v) => verbOn(v, "mcp") && !("host" in v));
    assert.deepEqual(tools.map((t) => t.name).sort(), onMcp.map(toolName).sort());
    for (const v of onMcp) {
      const tool = tools.find((t) => t.name === toolName(v))!;
      const props = tool.inputSchema.properties as Record<string, { description?: string; enum?: string[] }>;
      const fields = fieldsOf(v).filter(([, f]) => fieldOn(f, "mcp"));
      const expected = [
        ...fields.map(([k]) => k),
        ...(v.cwd && !fields.some(([k]) => k === "cwd") ? ["cwd"] : []),
      ];
      assert.deepEqual(Object.keys(props).sort(), expected.sort(), `${tool.name}: properties`);
      for (const [key, p] of Object.entries(props)) {
        assert.ok(p.description, `${tool.name}.${key} has no description`);
      }
      for (const [key, f] of fields) {
        if (f.kind === "text" && f.values) {
          assert.deepEqual(props[key].enum, [...f.values], `${tool.name}.${key}`);
        }
      }
      const required = fields.filter(([, f]) => f.required).map(([k]) => k);
      assert.deepEqual(
        [...(tool.inputSchema.required ?? [])].sort(),
        required.sort(),
        `${tool.name}: required`,
      );
      assert.equal(
        tool.annotations?.readOnlyHint,
        v.annotations?.readOnly === true,
        `${tool.name}: readOnly`,
      );
      assert.equal(tool.annotations?.destructiveHint, v.annotations?.destructive === true, `${tool.name}`);
      assert.equal(tool.inputSchema.additionalProperties, false, `${tool.name} refuses unknown keys`);
    }
  } finally {
    await client.close();
    await server.close();
  }
});

/** What mod.ts exports that is not a verb: the checks and the error type. */
const NOT_VERBS = new Set(["checkReviewResult", "checkTaskContract", "isSpotError", "SpotError"]);

Deno.test("every verb of the library is a function of mod.ts, and every function of mod.ts is a verb", () => {
  const exported = Object.entries(lib).filter(([name, value]) =>
    typeof value === "function" && !NOT_VERBS.has(name)
  );
  const onLib = verbs.filter((v) => verbOn(v, "lib") && !("host" in v));
  assert.deepEqual(exported.map(([name]) => name).sort(), onLib.map(libName).sort());
});

Deno.test("the generated library and command reference are what the table gives (deno task verbs)", async () => {
  for (const [path, text] of Object.entries(await renderVerbFiles())) {
    const onDisk = await Deno.readTextFile(join(ROOT, path)).catch(() => "(missing)");
    assert.equal(onDisk, text, `${path} is stale: run deno task verbs`);
  }
});

Deno.test("the index names each verb's table module, the views and host verbs match the table", async () => {
  const used = new Set<string>();
  for (const [module, load] of Object.entries(TABLE_MODULES)) {
    for (const v of await load()) {
      for (const word of [v.name.split(" ")[0], ...(v.alias ? [v.alias] : [])]) {
        assert.equal(
          MODULE_OF[word],
          module,
          `${v.name}: the index says ${MODULE_OF[word]}, it is in ${module}`,
        );
        used.add(word);
      }
    }
  }
  assert.deepEqual(Object.keys(MODULE_OF).sort(), [...used].sort(), "the index names no verb that is gone");
  assert.deepEqual(
    Object.keys(VIEWS).sort(),
    verbs.filter((v) => v.human).map((v) => v.name).sort(),
    "a human view for each verb that says it has one",
  );
  assert.deepEqual([...HOST_NAMES].sort(), verbs.filter((v) => "host" in v).map((v) => v.name).sort());
});

/** Codes no verb returns itself: what a job's task record says about a task that failed. */
const REPORTED_NOT_RETURNED = new Set([
  "RESULT_INVALID",
  "OWNERSHIP_VIOLATED",
  "BUDGET_EXCEEDED",
  "TASK_BASE_CONFLICT",
]);

Deno.test("every error code is one some verb says it can return", () => {
  const said = new Set([...COMMON_ERRORS, ...verbs.flatMap((v) => [...v.errors])]);
  const unsaid = Object.keys(ERROR_CODES).filter((c) =>
    !said.has(c as never) && !REPORTED_NOT_RETURNED.has(c)
  );
  assert.deepEqual(unsaid, [], "add each to the errors of the verbs that return it");
});

Deno.test("a daemon (it answers its signals itself) is a long verb of the CLI only", () => {
  const daemons = verbs.filter((v) => v.annotations?.daemon === true);
  assert.ok(daemons.some((v) => v.name === "executor join"), "executor join is a daemon");
  for (const v of daemons) {
    assert.deepEqual(v.faces, ["cli"], `${v.name}: a daemon has no MCP tool or library function`);
    assert.equal(v.annotations?.long, true, `${v.name}: a daemon runs for long`);
  }
});
