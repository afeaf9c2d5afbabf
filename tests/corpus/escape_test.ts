/** Corpus, part 2: secrets, escapes and planted repositories. */
import assert from "node:assert/strict";
import { join } from "node:path";
import { FIXED_ADD } from "../scenario.ts";
import { runEpisode } from "./corpus.ts";

Deno.test("corpus: an added AWS key, private key or .env is SECURITY_BLOCKED with file and line", async () => {
  const key = "AKIA" + "Q7ZL3MPX2RVN5TBE";
  const pem = ["-----BEGIN RSA PRIVATE", " KEY-----\nMIIEowIBAAKCAQEA7yq\n-----END RSA PRIVATE KEY-----\n"]
    .join("");
  const o = await runEpisode("deno", () => [
    { op: "write", path: "add.ts", content: FIXED_ADD + `\nexport const awsKeyId = "${key}";\n` },
    { op: "write", path: "id_rsa.pem", content: pem },
    { op: "write", path: ".env", content: "TOKEN=abc\n" },
  ]);
  assert.deepEqual([o.status, o.code], ["blocked", "SECURITY_BLOCKED"]);
  const issues =
    (o.last.json.error as { details: { issues: { code: string; file?: string; line?: number }[] } }).details
      .issues;
  assert.ok(
    issues.some((i) => i.code === "SECRET_DETECTED" && i.file === "add.ts" && i.line === 5),
    JSON.stringify(issues),
  );
  assert.ok(issues.some((i) => i.file === "id_rsa.pem"));
  assert.ok(issues.some((i) => i.file === ".env"));
  assert.ok(!JSON.stringify(issues).includes(key), "the secret itself is never echoed");
  await Deno.remove(o.env.dir, { recursive: true });
});

Deno.test("corpus: a write into the user's checkout is ESCAPED_WORKTREE (gate), and impossible under bwrap", async () => {
  const episode = (repo: string) => [
    { op: "write", path: "add.ts", content: FIXED_ADD },
    { op: "write", path: `../../../${repo}/escaped.txt`, content: "outside\n" },
  ];
  const gate = await runEpisode("deno", episode, { sandbox: "none" });
  assert.deepEqual([gate.status, gate.code], ["blocked", "ESCAPED_WORKTREE"]);
  assert.match((gate.last.json.error as { message: string }).message, /source checkout's files changed/);
  await Deno.remove(gate.env.dir, { recursive: true });
  const contained = await runEpisode("deno", episode, { sandbox: "bwrap" });
  assert.deepEqual([contained.status, contained.code], ["integrated", null], contained.last.stderr);
  assert.equal(await Deno.stat(join(contained.repo, "escaped.txt")).then(() => true, () => false), false);
  await Deno.remove(contained.env.dir, { recursive: true });
});

Deno.test("corpus: planting a hook through the shared git config is ESCAPED_WORKTREE (gate), and impossible under bwrap", async () => {
  const episode = () => [
    { op: "write", path: "add.ts", content: FIXED_ADD },
    { op: "exec", argv: ["git", "config", "core.hooksPath", "/tmp/evil-hooks"] },
  ];
  const gate = await runEpisode("deno", episode, { sandbox: "none" });
  assert.deepEqual([gate.status, gate.code], ["blocked", "ESCAPED_WORKTREE"]);
  assert.match((gate.last.json.error as { message: string }).message, /config was changed/);
  await Deno.remove(gate.env.dir, { recursive: true });
  const contained = await runEpisode("deno", episode, { sandbox: "bwrap" });
  assert.deepEqual([contained.status, contained.code], ["integrated", null], contained.last.stderr);
  assert.doesNotMatch(await Deno.readTextFile(join(contained.repo, ".git", "config")), /hooksPath/);
  await Deno.remove(contained.env.dir, { recursive: true });
});

Deno.test("corpus: a nested .git with hooks is blocked and its hook never runs", async () => {
  const o = await runEpisode("deno", () => [
    { op: "write", path: "add.ts", content: FIXED_ADD },
    { op: "exec", argv: ["git", "init", "-q", "vendor/lib"] },
    {
      op: "write",
      path: "vendor/lib/.git/hooks/post-checkout",
      content: '#!/bin/sh\ntouch "$HOME/../HOOK_RAN"\n',
    },
    {
      op: "write",
      path: "vendor/lib/.git/hooks/pre-commit",
      content: "#!/bin/sh\ntouch /tmp/spot-corpus-hook-ran\n",
    },
    {
      op: "exec",
      argv: ["chmod", "+x", "vendor/lib/.git/hooks/post-checkout", "vendor/lib/.git/hooks/pre-commit"],
    },
  ]);
  assert.deepEqual([o.status, o.code], ["blocked", "SECURITY_BLOCKED"]);
  const issues =
    (o.last.json.error as { details: { issues: { code: string; file: string }[] } }).details.issues;
  assert.deepEqual(issues.map((i) => [i.code, i.file]), [["NESTED_GIT", "vendor/lib/.git"]]);
  const ran = await Deno.stat(join(o.env.dir, "HOOK_RAN")).then(() => true, () => false);
  assert.equal(ran, false);
  await Deno.remove(o.env.dir, { recursive: true });
});

Deno.test("corpus: a ref the worker writes is ESCAPED_WORKTREE, even beside spot's own refs/spot ones", async () => {
  // spot writes refs/spot/<job>/... while other tasks' workers run, so those are left to it; any other ref is
  // still the worker reaching into the repository (under bwrap it cannot: the git dir is read-only).
  const gate = await runEpisode("deno", () => [
    { op: "write", path: "add.ts", content: FIXED_ADD },
    { op: "exec", argv: ["git", "update-ref", "refs/spot/job-x/tasks/t", "HEAD"] },
    { op: "exec", argv: ["git", "update-ref", "refs/heads/planted", "HEAD"] },
  ], { sandbox: "none" });
  assert.deepEqual([gate.status, gate.code], ["blocked", "ESCAPED_WORKTREE"]);
  const message = (gate.last.json.error as { message: string }).message;
  assert.match(message, /ref refs\/heads\/planted was added/);
  assert.doesNotMatch(message, /refs\/spot/);
  await Deno.remove(gate.env.dir, { recursive: true });
});
