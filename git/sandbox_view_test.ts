import assert from "node:assert/strict";
import { minimalConfig } from "./sandbox_view.ts";

Deno.test("minimalConfig() keeps the repository format and safe core keys, and nothing else of the parent's", () => {
  const text = minimalConfig({
    "core.repositoryformatversion": "0",
    "extensions.objectformat": "sha256",
    "core.filemode": "true",
    "core.autocrlf": "input",
    "core.eol": "evil\n[credential]\n\thelper = !cat /etc/shadow",
    "core.symlinks": "maybe",
  }, { name: 'A "quoted" \\ name\n[x]', email: "a@b.invalid" });
  assert.equal(
    text,
    [
      "[core]",
      "\tbare = false",
      "\tfilemode = true",
      "\tautocrlf = input",
      "\trepositoryformatversion = 1",
      "[extensions]",
      "\tobjectformat = sha256",
      "[user]",
      '\tname = "A \\"quoted\\" \\\\ name [x]"',
      '\temail = "a@b.invalid"',
      "",
    ].join("\n"),
  );
});

Deno.test("minimalConfig() of an empty config is still a valid, non-bare repository config", () => {
  assert.equal(
    minimalConfig({}, { name: "spot", email: "spot@localhost" }),
    '[core]\n\tbare = false\n[user]\n\tname = "spot"\n\temail = "spot@localhost"\n',
  );
});
