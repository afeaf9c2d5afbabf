import assert from "node:assert/strict";
import { shortArgv } from "./checks.ts";

Deno.test("shortArgv() shows a check as its program's name and its arguments", () => {
  assert.equal(shortArgv(["/usr/bin/deno", "test", "add_test.ts"]), "deno test add_test.ts");
});

Deno.test("shortArgv() cuts a long argv in the middle and keeps its last argument", () => {
  const shown = shortArgv([
    "/usr/bin/python3",
    "-m",
    "pytest",
    "-q",
    "-x",
    "--maxfail=1",
    "-p",
    "no:cacheprovider",
    "tests/test_add.py",
  ]);
  assert.ok(shown.length <= 48, shown);
  assert.ok(shown.startsWith("python3 -m pytest"), shown);
  assert.ok(shown.endsWith(" … tests/test_add.py"), shown);
});
