import assert from "node:assert/strict";
import { spawnProcess } from "../sandbox/spawn.ts";
import { completionScript } from "./completions.ts";
import { EXAMPLES } from "./examples.ts";
import { parseFast } from "./argv.ts";
import { type CommandSpec, optionShape } from "./spec.ts";
import { COMMANDS } from "./table.ts";
import { buildProgram } from "./program.ts";
import { Invocation } from "./invoke.ts";

/** Every visible command by its words, with its long options. */
function visible(table: CommandSpec[], prefix: string[] = []): { path: string[]; options: string[] }[] {
  return table.filter((c) => !c.hidden).flatMap((c) => [
    { path: [...prefix, c.name], options: (c.options ?? []).map((o) => optionShape(o.flags).long) },
    ...visible(c.commands ?? [], [...prefix, c.name]),
  ]);
}

/** What bash offers after these words, with the generated script sourced. */
async function complete(script: string, words: string[]): Promise<string[]> {
  const line = words.map((w) => `'${w}'`).join(" ");
  const r = await spawnProcess([
    "bash",
    "-c",
    `source /dev/stdin; COMP_WORDS=(${line}); COMP_CWORD=${
      words.length - 1
    }; _spot; printf '%s\\n' "\${COMPREPLY[@]}"`,
  ], { env: { PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin" }, stdinText: script });
  assert.equal(r.exitCode, 0, r.stderr);
  return r.stdout.split("\n").filter(Boolean);
}

Deno.test("bash completion offers every command, subcommand and option, from the table", async () => {
  const script = completionScript(COMMANDS, "bash");
  for (const { path, options } of visible(COMMANDS)) {
    const parent = path.slice(0, -1);
    const offered = await complete(script, ["spot", ...parent, ""]);
    assert.ok(
      offered.includes(path[path.length - 1]),
      `spot ${parent.join(" ")} <tab> lacks ${path.join(" ")}`,
    );
    if (options.length > 0) {
      const flags = await complete(script, ["spot", ...path, "--"]);
      assert.deepEqual(flags.sort(), [...options].sort(), `spot ${path.join(" ")} --<tab>`);
    }
  }
  // Past an agent's name the path still ends at the command, so its options are offered.
  assert.deepEqual(await complete(script, ["spot", "agent", "start", "fix-add", "--ta"]), ["--task"]);
  // The hidden driver is never offered.
  assert.ok(!(await complete(script, ["spot", "agent", ""])).includes("drive"));
});

Deno.test("zsh and fish scripts name every visible command and option", () => {
  const zsh = completionScript(COMMANDS, "zsh");
  const fish = completionScript(COMMANDS, "fish");
  assert.match(zsh, /bashcompinit/);
  for (const { path, options } of visible(COMMANDS)) {
    const name = path[path.length - 1];
    assert.ok(zsh.includes(`"${path.join(" ")}")`), `zsh lacks ${path.join(" ")}`);
    assert.ok(fish.includes(` -a ${name} `), `fish lacks ${path.join(" ")}`);
    for (const o of options) {
      assert.ok(fish.includes(`-l ${o.slice(2)}`), `fish lacks ${path.join(" ")} ${o}`);
    }
  }
});

/** Splits an example the way a shell would for these simple cases: words, and "double-quoted" text. */
const words = (line: string) => [...line.matchAll(/"([^"]*)"|(\S+)/g)].map((m) => m[1] ?? m[2]);

Deno.test("every visible command has a --help example, and each example is a valid call of it", () => {
  for (const { path } of visible(COMMANDS)) {
    if (path.length === 1 && COMMANDS.find((c) => c.name === path[0])?.commands) continue;
    const key = path.join(" ");
    const example = EXAMPLES[key];
    assert.ok(example, `no example for spot ${key}`);
    const argv = words(example).slice(1);
    const parsed = parseFast(COMMANDS, argv);
    assert.ok(parsed, `the example of spot ${key} does not parse: ${example}`);
    assert.equal(parsed.command.name, path[path.length - 1], example);
    const out: string[] = [];
    let command = buildProgram(COMMANDS, new Invocation());
    for (const word of path) command = command.commands.find((c) => c.name() === word)!;
    command.configureOutput({ writeOut: (t) => out.push(t), writeErr: (t) => out.push(t) });
    command.outputHelp();
    assert.ok(out.join("").includes(example), `spot ${key} --help does not show its example`);
  }
  const known = new Set(visible(COMMANDS).map((v) => v.path.join(" ")));
  for (const key of Object.keys(EXAMPLES)) assert.ok(known.has(key), `an example for no command: ${key}`);
});
