/** The README documents every error code and every command the CLI has. */
import assert from "node:assert/strict";
import { join } from "node:path";
import { ERROR_CODES } from "../errors.ts";
import { COMMANDS } from "../cli/table.ts";
import { type AnyVerb, verbOn, VERBS } from "../table/mod.ts";
import { skillProblems } from "./skill/drift.ts";
import { ROOT } from "./helpers.ts";

const readme = await Deno.readTextFile(join(ROOT, "README.md"));

Deno.test("the README's exit-code table lists every error code with its exit code's row", () => {
  const rows = readme.split("\n").filter((l) => /^\| (\d|129)/.test(l));
  for (const [code, exit] of Object.entries(ERROR_CODES)) {
    const row = rows.find((r) => r.includes(`\`${code}\``));
    assert.ok(row, `README does not document ${code}`);
    const first = row.split("|")[1].trim();
    assert.ok(
      first === String(exit) || first.split("/").includes(String(exit)),
      `${code} is in row ${first}, not ${exit}`,
    );
  }
});

/** The README's list of commands: the fenced block under "## The loop". */
function verbList(): string[] {
  const section = readme.split(/^## The loop$/m)[1];
  return section.split(/^```/m)[1].split("\n").slice(1).map((l) => l.replace(/\s+#.*$/, "").trim()).filter(
    Boolean,
  );
}

/** The verbs a line names: `spot agent poll|peek NAME` names `agent poll` and `agent peek`. */
function named(line: string): string[] {
  const words = line.split(/\s+/).slice(1);
  const group = COMMANDS.find((c) => c.name === words[0] && c.commands);
  const [first, second] = group ? [words[0], words[1]] : [undefined, words[0]];
  return second.split("|").map((w) => (first ? `${first} ${w}` : w));
}

Deno.test("the README's list of commands names every visible verb of the table, and only those", () => {
  const shown = new Set(verbList().flatMap(named));
  const visible = (VERBS as readonly AnyVerb[]).filter((v) => verbOn(v, "cli") && !v.hidden).map((v) =>
    v.name
  );
  assert.deepEqual(
    [...shown].filter((n) => !visible.includes(n)),
    [],
    "the README names verbs the table lacks",
  );
  assert.deepEqual(visible.filter((n) => !shown.has(n)), [], "the README's list lacks verbs of the table");
  const lines = verbList().flatMap((line) =>
    named(line).map((verb) => `spot ${verb} ${line.split(/\s+/).slice(verb.split(" ").length + 1).join(" ")}`)
  );
  const problems = lines.flatMap((line) => skillProblems("`" + line + "`", "README", ""));
  assert.deepEqual(problems.filter((p) => !p.includes("is neither")), [], "every flag shown exists");
});
