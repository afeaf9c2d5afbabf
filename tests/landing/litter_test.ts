/**
 * No litter: a single run's checks at integration run in a scratch worktree of the landed commit, never in the
 * user's checkout. A Python check writes `__pycache__/`, a node check a build output; after `integrate` the
 * checkout is byte-identical to before apart from the landed commit's own change. (Integrate checks in a
 * scratch tree only when what lands is not what verify checked: here the contract's checks are edited after
 * verify; tests/landing/verified_landing_test.ts has the case where verify's result stands.)
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { makeRepo, sh, spot, spotEnv } from "../helpers.ts";
import {
  checkoutFiles,
  committedRun,
  contract,
  lengthenStoredChecks,
  runState,
  worktrees,
} from "./helpers.ts";

const BUILD = `const fs = require("fs");
fs.mkdirSync("dist", { recursive: true });
fs.writeFileSync("dist/out.js", fs.readFileSync("src.js", "utf8"));
`;

Deno.test("integrate runs its checks in a scratch tree: the checkout gets the commit and nothing else, no tree is left", async () => {
  const env = await spotEnv({ sandbox: "none" });
  // The checks' programs from the system's own dirs, whatever shims the test machine's PATH puts first.
  env.env.PATH = `/usr/bin:/bin:${env.env.PATH}`;
  const repo = await makeRepo({
    "mod.py": "VALUE = 1\n",
    "src.js": "module.exports = 1;\n",
    "build.js": BUILD,
    "README.md": "# r\n",
  }, env.dir);
  const task = await contract(env, "litter", {
    allowed: ["mod.py", "src.js"],
    checks: [
      ["python3", "-c", "import mod; assert mod.VALUE == 2"],
      ["node", "build.js"],
      ["sh", "-c", "test -d __pycache__ && test -f dist/out.js"],
    ],
  });
  const id = await committedRun(env, repo, task, {
    "mod.py": "VALUE = 2\n",
    "src.js": "module.exports = 2;\n",
  });
  // A scratch tree a killed landing left behind, still registered in the repository: the next landing removes it.
  await sh(
    repo,
    "git",
    "worktree",
    "add",
    "-q",
    "--detach",
    join(env.dir, "cache", "landing", "killed-1"),
    "HEAD",
  );
  // The parent's contract changed after verify (a longer timeout): integrate checks the landed commit again.
  await lengthenStoredChecks(join(env.stateDir, "runs", id));
  const before = await checkoutFiles(repo);
  const head = await sh(repo, "git", "rev-parse", "HEAD");

  const integrate = await spot(env, repo, "integrate", "--id", id);
  assert.equal(integrate.code, 0, integrate.stdout + integrate.stderr);
  assert.equal(integrate.json.status, "integrated");
  assert.equal(await sh(repo, "git", "rev-parse", "HEAD^"), head);
  // The checks ran, and saw their own outputs, in the scratch tree.
  const post = JSON.parse(
    await Deno.readTextFile(join(env.stateDir, "runs", id, "post-integration-verification.json")),
  );
  assert.equal(post.passed, true, JSON.stringify(post.commands));
  assert.equal(post.commands.length, 3, "the checks ran again at integration");
  assert.equal(post.commit, integrate.json.integratedCommit);
  // The checkout: byte for byte what it was, plus the commit's two files.
  assert.deepEqual(await checkoutFiles(repo), {
    ...before,
    "mod.py": "VALUE = 2\n",
    "src.js": "module.exports = 2;\n",
  });
  assert.equal(await sh(repo, "git", "status", "--porcelain", "--ignored"), "");
  // The scratch tree is gone, from the disk and from the repository's worktree list.
  const run = await runState(env, id);
  assert.deepEqual(await worktrees(repo), [repo, run.worktreePath].map((p) => Deno.realPathSync(p)));
  const scratch = join(env.dir, "cache", "landing");
  assert.deepEqual([...Deno.readDirSync(scratch)], []);
  await Deno.remove(env.dir, { recursive: true });
});
