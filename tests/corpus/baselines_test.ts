/**
 * Corpus, part 4: what a worker that knows the gates would do without an OS sandbox. It deletes or
 * rewrites the baselines the gates compare against, and it repoints its worktree at a git dir of its own
 * so that spot's own `git add` runs its filter. Each attempt must stop the run, never read as "no change".
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { FIXED_ADD } from "../scenario.ts";
import { runEpisode } from "./corpus.ts";

const sh = (script: string) => ({ op: "exec", argv: ["sh", "-c", script] });
const EDIT_LOCKED_TEST = { op: "write", path: "add_test.ts", content: 'Deno.test("ok", () => {});\n' };

Deno.test("corpus: deleting locked.json to edit a locked test is STATE_INVALID, never a pass", async () => {
  const o = await runEpisode("deno", (_repo, env) => [
    { op: "write", path: "add.ts", content: FIXED_ADD },
    EDIT_LOCKED_TEST,
    sh(`rm -f '${env.stateDir}'/runs/*/locked.json`),
    // The parent allowed the test's path but locked the file: the lock, not the scope, is what holds.
  ], { sandbox: "none", allowedPaths: ["add.ts", "add_test.ts"] });
  assert.deepEqual([o.status, o.code], ["blocked", "STATE_INVALID"], o.last.stdout + o.last.stderr);
  assert.match((o.last.json.error as { message: string }).message, /locked\.json is missing/);
  await Deno.remove(o.env.dir, { recursive: true });
});

Deno.test("corpus: deleting escape.json to hide a planted hook is STATE_INVALID", async () => {
  const o = await runEpisode("deno", (_repo, env) => [
    { op: "write", path: "add.ts", content: FIXED_ADD },
    { op: "exec", argv: ["git", "config", "core.hooksPath", "/tmp/evil-hooks"] },
    sh(`rm -f '${env.stateDir}'/runs/*/escape.json`),
  ], { sandbox: "none" });
  assert.deepEqual([o.status, o.code], ["blocked", "STATE_INVALID"], o.last.stdout + o.last.stderr);
  assert.match((o.last.json.error as { message: string }).message, /escape\.json is missing/);
  await Deno.remove(o.env.dir, { recursive: true });
});

/**
 * The worker builds a git dir of its own (objects borrowed from the real one through alternates) whose
 * config defines a clean filter, marks every file with it in .gitattributes, and points its worktree's
 * `.git` file there. Had spot's `git add` found that git dir, the filter would run with spot's rights.
 */
function repointGitDir(marker: string): Record<string, unknown>[] {
  return [
    { op: "write", path: "add.ts", content: FIXED_ADD },
    { op: "write", path: ".cache/g/HEAD", content: "ref: refs/heads/x\n" },
    {
      op: "write",
      path: ".cache/g/config",
      content: `[core]\n\trepositoryformatversion = 0\n[filter "pwn"]\n\tclean = touch ${marker} && cat\n`,
    },
    { op: "write", path: ".gitattributes", content: "* filter=pwn\n" },
    sh([
      `real=$(sed -n 's/^gitdir: //p' .git)`,
      `common=$(cd "$real" && cd "$(cat commondir)" && pwd)`,
      "mkdir -p .cache/g/objects/info .cache/g/refs/heads",
      `echo "$common/objects" > .cache/g/objects/info/alternates`,
      `printf 'gitdir: %s\\n' "$PWD/.cache/g" > .git`,
    ].join(" && ")),
  ];
}

Deno.test("corpus: a worktree repointed at a git dir with a filter is ESCAPED_WORKTREE, and the filter never runs", async () => {
  let marker = "";
  const o = await runEpisode("deno", (_repo, env) => {
    marker = join(env.dir, "filter-ran");
    return repointGitDir(marker);
  }, { sandbox: "none" });
  assert.equal(await Deno.stat(marker).then(() => true, () => false), false, "spot's git ran the filter");
  assert.deepEqual([o.status, o.code], ["blocked", "ESCAPED_WORKTREE"], o.last.stdout + o.last.stderr);
  assert.match((o.last.json.error as { message: string }).message, /\.git file was changed/);
  await Deno.remove(o.env.dir, { recursive: true });
});
