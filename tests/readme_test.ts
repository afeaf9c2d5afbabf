/** The README documents every error code and every command the CLI has. */
import assert from "node:assert/strict";
import { join } from "node:path";
import { ERROR_CODES } from "../errors.ts";
import { COMMANDS } from "../cli/table.ts";
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

Deno.test("the README shows every top-level command", () => {
  const commands = COMMANDS.map((c) => c.name);
  assert.ok(commands.length >= 15, `found only ${commands.length} commands in the command table`);
  for (const c of commands) {
    assert.match(readme, new RegExp(`spot ${c}\\b`), `README does not show "spot ${c}"`);
  }
});
