/**
 * Conformance, FS group (checklist §8): writes out of the worktree, through
 * links, into the parent repository's git dir, over the `.git` file and
 * over locked files. One scripted worker turn per backend makes every
 * attack; each step then checks one of them from the host.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import {
  BACKENDS,
  episode,
  exists,
  expectEscape,
  lab,
  readOr,
  SCRIPT_END,
  shStep,
  toolText,
} from "./harness.ts";

const LOCKED_A = "echo locked a\n";
const LOCKED_B = "echo locked b\n";

function attacks(c: string, repo: string, home: string, dir: string, cache: string): string {
  return [
    // spot's own caches: a forged validated config or sandbox verdict would be read by the next verb.
    `mkdir -p ${cache}/config ${cache}/sandbox-probe; echo ${c} > ${cache}/config/fs11-${c}.json; echo ${c} > ${cache}/sandbox-probe/fs11-${c}.json`,
    `echo ${c} > ../fs01-${c}`,
    `echo ${c} > ../../fs01b-${c}`,
    `echo ${c} >> ${home}/.bashrc`,
    `echo ${c} > /tmp/spot-fs02-${c}`,
    `echo ${c} > ${dir}/fs02-${c}`,
    `ln -s ${repo}/.git/config lnk && echo '[evil]' >> lnk`,
    `ln ${dir}/outside.txt hl && echo ${c} >> hl`,
    `printf '#!/bin/sh\\ntouch ${dir}/hook-ran\\n' > ${repo}/.git/hooks/pre-commit`,
    `printf '[core]\\n\\thooksPath = /tmp/evil\\n' >> ${repo}/.git/config`,
    `git update-ref refs/heads/evil-${c} HEAD`,
    `echo ${c} > "$(sed 's/^gitdir: //' .git)/config.worktree"`,
    `echo 'exit 0' > tests/locked_a.sh`,
    `chmod 777 tests/locked_a.sh`,
    `mv checks checks2 && mkdir checks && echo 'exit 0' > checks/locked_b.sh`,
    `echo 'gitdir: /tmp/evil' > .git`,
    `rm -f .git`,
    `echo ok > legit.txt && mkdir -p src/deep && echo ok > src/deep/new.ts && echo ok > tests/beside_locked.txt`,
    `echo ${SCRIPT_END}`,
  ].join("\n");
}

for (const backend of BACKENDS) {
  Deno.test({
    name: `FS group under ${backend}: writes outside the worktree, into git and over locked files`,
    sanitizeResources: false,
    sanitizeOps: false,
    fn: async (t) => {
      const l = await lab({
        files: {
          "add.ts": "export const add = 1;\n",
          "tests/locked_a.sh": LOCKED_A,
          "checks/locked_b.sh": LOCKED_B,
        },
      });
      const c = l.canary;
      try {
        await Deno.writeTextFile(join(l.dir, "outside.txt"), "outside original\n");
        const configBefore = await Deno.readTextFile(join(l.repo, ".git", "config"));
        const modeBefore = (await Deno.stat(join(l.repo, "tests", "locked_a.sh"))).mode;
        const ep = await episode(l, backend, [
          shStep(attacks(c, l.repo, l.home, l.dir, l.env.env.PI_WORKER_CACHE_DIR)),
        ], {
          lockedPaths: ["tests/locked_a.sh", "checks/locked_b.sh"],
        });
        const repoGit = join(await Deno.realPath(l.repo), ".git");
        if (backend === "bwrap") {
          assert.equal(ep.run.code, 0, `the worker itself must still run: ${ep.run.stderr}`);
        }
        assert.match(toolText(ep), new RegExp(SCRIPT_END), "the attack script ran to its end");

        await t.step("near miss: ordinary writes in the worktree, even beside a locked file, land", () => {
          for (const rel of ["legit.txt", "src/deep/new.ts", "tests/beside_locked.txt"]) {
            assert.equal(readOr(join(ep.worktree, rel)), "ok\n", rel);
          }
        });
        await t.step("FS-01: a relative write out of the worktree does not land on the host", () => {
          expectEscape(
            backend,
            exists(join(ep.worktree, "..", `fs01-${c}`)) ||
              exists(join(ep.worktree, "..", "..", `fs01b-${c}`)),
            "../fs01",
          );
        });
        await t.step(
          "FS-11: spot's caches (the validated config, the sandbox verdict) cannot be written",
          () => {
            const cache = l.env.env.PI_WORKER_CACHE_DIR;
            const landed = exists(join(cache, "config", `fs11-${c}.json`)) ||
              exists(join(cache, "sandbox-probe", `fs11-${c}.json`));
            expectEscape(backend, landed, "cache write");
          },
        );
        await t.step("FS-02: absolute writes to the user's HOME, /tmp and other dirs do not land", () => {
          const landed = readOr(join(l.home, ".bashrc")).includes(c) || exists(`/tmp/spot-fs02-${c}`) ||
            exists(join(l.dir, `fs02-${c}`));
          expectEscape(backend, landed, "absolute escape");
        });
        await t.step("FS-03: writing through a symlink to the parent's .git/config changes nothing", () => {
          expectEscape(backend, readOr(join(repoGit, "config")).includes("[evil]"), "symlink write");
        });
        await t.step("FS-04: a hardlink to an outside file cannot be used to change it", () => {
          expectEscape(backend, readOr(join(l.dir, "outside.txt")).includes(c), "hardlink write");
        });
        await t.step("FS-05: the parent's hooks, config, refs and worktree config stay unchanged", () => {
          const config = readOr(join(repoGit, "config"));
          const changed = exists(join(repoGit, "hooks", "pre-commit")) ||
            config !== configBefore || config.includes("hooksPath") ||
            exists(join(repoGit, "refs", "heads", `evil-${c}`)) ||
            exists(join(repoGit, "worktrees", ep.runId, "config.worktree"));
          expectEscape(backend, changed, "parent git dir");
        });
        await t.step("FS-06: the worktree's .git file cannot be rewritten, removed or moved", () => {
          const pointer = readOr(join(ep.worktree, ".git"), "(gone)");
          expectEscape(backend, pointer !== `gitdir: ${repoGit}/worktrees/${ep.runId}\n`, ".git file");
        });
        await t.step("FS-09: a locked file cannot be written or chmod-ed", async () => {
          const path = join(ep.worktree, "tests", "locked_a.sh");
          const mode = (await Deno.stat(path)).mode;
          expectEscape(backend, readOr(path) !== LOCKED_A || mode !== modeBefore, "locked file");
        });
        await t.step("FS-10: renaming a locked file's directory cannot get around the lock", () => {
          const swapped = readOr(join(ep.worktree, "checks", "locked_b.sh")) !== LOCKED_B ||
            exists(join(ep.worktree, "checks2"));
          expectEscape(backend, swapped, "ancestor rename");
        });
      } finally {
        await Deno.remove(`/tmp/spot-fs02-${c}`).catch(() => {});
        await l.cleanup();
      }
    },
  });
}
