import assert from "node:assert/strict";
import { join } from "node:path";
import { spawnProcess } from "../sandbox/spawn.ts";
import { ROOT } from "../tests/helpers.ts";
import { completionScript } from "./completions.ts";
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
async function complete(
  script: string,
  words: string[],
  env: Record<string, string> = {},
  cwd?: string,
): Promise<string[]> {
  const line = words.map((w) => `'${w}'`).join(" ");
  const r = await spawnProcess([
    "bash",
    "-c",
    `source /dev/stdin; COMP_WORDS=(${line}); COMP_CWORD=${
      words.length - 1
    }; _spot; printf '%s\\n' "\${COMPREPLY[@]}"`,
  ], { env: { PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin", ...env }, stdinText: script, cwd });
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

Deno.test("bash completion offers the values an option or positional takes: fixed ones, paths, ids and names", async () => {
  const dir = await Deno.makeTempDir({ prefix: "spot-complete-" });
  try {
    const state = join(dir, "state");
    for (const [kind, names] of Object.entries({ runs: RUNS, agents: ["fix-add", "docs"], jobs: [JOB] })) {
      for (const name of names) await Deno.mkdir(join(state, kind, name), { recursive: true });
    }
    // The script asks the spot the user typed for the ids: here, this checkout.
    const bin = join(dir, "bin");
    await Deno.mkdir(bin);
    await Deno.writeTextFile(
      join(bin, "spot"),
      `#!/bin/sh\nexec "${Deno.execPath()}" run -A --quiet --config "${join(ROOT, "deno.json")}" "${
        join(ROOT, "cli.ts")
      }" "$@"\n`,
      { mode: 0o755 },
    );
    await Deno.writeTextFile(join(dir, "task.json"), "{}");
    const env = { PATH: `${bin}:${Deno.env.get("PATH")}`, PI_WORKER_STATE_DIR: state, HOME: dir };
    const script = completionScript(COMMANDS, "bash");
    const at = (words: string[]) => complete(script, ["spot", ...words], env, dir);
    // After --id, the run ids (not --id again), newest first.
    assert.deepEqual(await at(["inspect", "--id", ""]), [...RUNS].sort().reverse());
    assert.deepEqual(await at(["verify", "--id", "run-2026"]), [RUNS[1]]);
    assert.deepEqual((await at(["agent", "stop", ""])).sort(), ["docs", "fix-add"]);
    assert.deepEqual(await at(["agent", "watch", "fix-add", "d"]), ["docs"]);
    assert.deepEqual(await at(["job", "status", ""]), [JOB]);
    // A job's second positional (the task) is not a job id.
    assert.deepEqual(await at(["job", "repair", JOB, "j"]), []);
    assert.deepEqual(await at(["prepare", "--task", "x", "--sandbox", ""]), ["auto", "bwrap", "none"]);
    assert.deepEqual(await at(["prepare", "--task", "ta"]), ["task.json"]);
    assert.deepEqual(await at(["report", "--format", "p"]), ["parent"]);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

const RUNS = ["run-20250101-000000-aaaaaa", "run-20260101-000000-bbbbbb"];
const JOB = "job-20250101-120000-a1b2c3";

Deno.test("zsh and fish scripts name every visible command and option", () => {
  const zsh = completionScript(COMMANDS, "zsh");
  const fish = completionScript(COMMANDS, "fish");
  assert.match(zsh, /bashcompinit/);
  assert.ok(
    fish.includes(`-l id -r -f -a '(spot complete runs 2>/dev/null)'`),
    "fish offers run ids after --id",
  );
  assert.ok(fish.includes(`-l sandbox -r -f -a 'auto bwrap none'`), "fish offers the sandbox modes");
  for (const { path, options } of visible(COMMANDS)) {
    const name = path[path.length - 1];
    assert.ok(zsh.includes(`"${path.join(" ")}")`), `zsh lacks ${path.join(" ")}`);
    assert.ok(fish.includes(` -a ${name} `), `fish lacks ${path.join(" ")}`);
    for (const o of options) {
      assert.ok(fish.includes(`-l ${o.slice(2)}`), `fish lacks ${path.join(" ")} ${o}`);
    }
  }
});

function specAt(path: string[]): CommandSpec | undefined {
  let table = COMMANDS;
  let spec: CommandSpec | undefined;
  for (const word of path) {
    spec = table.find((c) => c.name === word);
    table = spec?.commands ?? [];
  }
  return spec;
}

/** Splits an example the way a shell would for these simple cases: words, and "double-quoted" text. */
const words = (line: string) => [...line.matchAll(/"([^"]*)"|(\S+)/g)].map((m) => m[1] ?? m[2]);

Deno.test("every visible command has a --help example, and each example is a valid call of it", () => {
  for (const { path } of visible(COMMANDS)) {
    if (path.length === 1 && COMMANDS.find((c) => c.name === path[0])?.commands) continue;
    const key = path.join(" ");
    const example = specAt(path)?.example;
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
});
