import assert from "node:assert/strict";
import { parseFast } from "./argv.ts";
import { buildProgram } from "./program.ts";
import { type CommandSpec, type Options, optionShape } from "./spec.ts";
import { COMMANDS } from "./table.ts";
import { Invocation } from "./invoke.ts";
import { buildCommands } from "./commands.ts";
import { commandsFor } from "./fast_table.ts";
import { runOnCli } from "./run_verb.ts";
import { MODULE_OF, TABLE_MODULES } from "../table/index.ts";

/** The table with every `run` replaced by one that records what it was given. */
function recording(table: CommandSpec[], seen: { name: string; options: Options }[]): CommandSpec[] {
  return table.map((c) => ({
    ...c,
    commands: c.commands && recording(c.commands, seen),
    run: c.run && ((options: Options) => {
      seen.push({ name: c.name, options: { ...options } });
      return Promise.resolve();
    }),
  }));
}

async function viaCommander(argv: string[]): Promise<{ name: string; options: Options } | null> {
  const seen: { name: string; options: Options }[] = [];
  const program = buildProgram(recording(COMMANDS, seen), new Invocation());
  program.configureOutput({ writeErr: () => {}, writeOut: () => {} });
  try {
    await program.parseAsync(argv, { from: "user" });
  } catch {
    return null;
  }
  return seen[0] ?? null;
}

const SAMPLE: Record<string, string> = { bool: "true", n: "3", port: "7400", seconds: "2.5" };

/** Calls for every command: its required options, then each optional one added, in both spellings. */
function calls(): string[][] {
  const out: string[][] = [];
  const walk = (specs: CommandSpec[], prefix: string[]) => {
    for (const c of specs) {
      if (c.commands) {
        walk(c.commands, [...prefix, c.name]);
        continue;
      }
      const required = (c.options ?? []).filter((o) => o.required);
      const positional = (c.args ?? []).flatMap((a) =>
        a.variadic ? [`${a.name}1`, `${a.name}2`] : [`${a.name}1`]
      );
      const flags = required.flatMap((
        o,
      ) => [optionShape(o.flags).long, `v-${optionShape(o.flags).long.slice(2)}`]);
      const base = [...positional, ...flags];
      const names = [c.name, ...(c.alias ? [c.alias] : [])];
      for (const name of names) out.push([...prefix, name, ...base]);
      for (const o of (c.options ?? []).filter((o) => !o.required)) {
        const { long, takesValue } = optionShape(o.flags);
        const placeholder = o.flags.split(/\s+/)[1]?.slice(1, -1) ?? "";
        const value = SAMPLE[placeholder] ?? `v-${placeholder}`;
        if (!takesValue) out.push([...prefix, c.name, ...base, long]);
        else {
          out.push([...prefix, c.name, ...base, long, value]);
          out.push([...prefix, c.name, `${long}=${value}`, ...base]);
        }
      }
    }
  };
  walk(COMMANDS, []);
  return out;
}

Deno.test("the fast parser reads every well-formed call exactly as commander does", async () => {
  const all = calls();
  assert.ok(all.length > 60, `only ${all.length} calls generated`);
  for (const argv of all) {
    const fast = parseFast(COMMANDS, argv);
    const slow = await viaCommander(argv);
    assert.ok(fast, `the fast parser gave up on: spot ${argv.join(" ")}`);
    assert.ok(slow, `commander refused: spot ${argv.join(" ")}`);
    assert.equal(fast.command.name, slow.name, argv.join(" "));
    assert.deepEqual(fast.options, slow.options, `spot ${argv.join(" ")}`);
  }
});

Deno.test("the fast parser hands commander every call it is not sure of", () => {
  const unsure = [
    [],
    ["--help"],
    ["-h"],
    ["--version"],
    ["help", "inspect"],
    ["inspect"],
    ["inspect", "--help"],
    ["inspect", "--id"],
    ["inspect", "--id", "--all"],
    ["inspect", "--id", "a", "--id", "b"],
    ["inspect", "--id", "a", "extra"],
    ["inspect", "--id", "a", "--"],
    ["inspect", "--idd", "a"],
    ["inspect", "-i", "a"],
    ["list", "--running=yes"],
    ["config"],
    ["config", "nope"],
    ["nope"],
    ["agent", "poll"],
    ["agent", "poll", "a", "b"],
    ["agent", "watch"],
    ["agent", "stop", "-x"],
  ];
  for (const argv of unsure) assert.equal(parseFast(COMMANDS, argv), null, `spot ${argv.join(" ")}`);
});

Deno.test("a bad value is the same CLI_USAGE error from either parser", async () => {
  assert.throws(() => parseFast(COMMANDS, ["list", "--limit", "x"]), /as a count/);
  const seen: { name: string; options: Options }[] = [];
  const program = buildProgram(recording(COMMANDS, seen), new Invocation());
  await assert.rejects(program.parseAsync(["list", "--limit", "x"], { from: "user" }), /as a count/);
});

/** A command as the fast parser sees it, its functions aside (each build makes new ones). */
function shape(command: CommandSpec | undefined): unknown {
  return command && JSON.parse(JSON.stringify(command));
}

Deno.test("a call's first word builds only its own commands, each the same as from its whole table", async () => {
  for (const [word, module] of Object.entries(MODULE_OF)) {
    const whole = buildCommands(await TABLE_MODULES[module](), runOnCli);
    const own = await commandsFor(word);
    const find = (table: CommandSpec[]) => table.find((c) => c.name === word || c.alias === word);
    assert.ok(find(own), `${word}: found`);
    assert.deepEqual(shape(find(own)), shape(find(whole)), word);
    assert.ok(
      own.length < whole.length || whole.length === 1,
      `${word}: ${own.length} of ${whole.length} built`,
    );
  }
});

Deno.test("the fast parser reads a call the same from a word's own commands", async () => {
  const calls = [["inspect", "--id", "run-1"], ["run", "--id", "run-1"], ["config", "show"], [
    "go",
    "--id",
    "r",
  ]];
  for (const argv of calls.filter((a) => MODULE_OF[a[0]])) {
    const whole = buildCommands(await TABLE_MODULES[MODULE_OF[argv[0]]](), runOnCli);
    const a = parseFast(await commandsFor(argv[0]), argv);
    const b = parseFast(whole, argv);
    assert.deepEqual(shape(a?.command), shape(b?.command), argv.join(" "));
    assert.deepEqual(a?.options, b?.options, argv.join(" "));
  }
  assert.deepEqual(await commandsFor("no-such-word"), []);
});
