/**
 * SYMLINK_ESCAPE: a symbolic link in the source that leads outside the repository (absolute or relative;
 * tracked, changed in the working tree, untracked, or copied in by `.worktreeinclude`; directly, through a
 * chain, or by `..` after a linked directory) is refused at prepare, before any branch or worktree exists.
 * Without the refusal a worker under `--sandbox none` writes through such a link to the user's files.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { sh, spot, type SpotEnv, spotEnv } from "../helpers.ts";
import { demoScenario, type Scenario } from "../scenario.ts";

type Err = { code: string; message: string; details: { links: { path: string; source: string }[] } };

async function prepare(env: SpotEnv, sc: Scenario) {
  return await spot(
    env,
    sc.repo,
    "prepare",
    "--task",
    sc.taskFile,
    "--profile",
    "replay",
    "--model",
    sc.episodeFile,
    "--sandbox",
    "none",
  );
}

async function commitLink(repo: string, path: string, target: string): Promise<void> {
  await Deno.mkdir(join(repo, path, ".."), { recursive: true });
  await Deno.symlink(target, join(repo, path));
  await sh(repo, "git", "add", "--", path);
  await sh(repo, "git", "commit", "-q", "-m", `link ${path}`);
}

/** Prepare is refused with SYMLINK_ESCAPE naming `path` from `source`, and nothing was made. */
async function assertRefused(env: SpotEnv, sc: Scenario, path: string, source: string): Promise<void> {
  const before = await made(env, sc);
  const r = await prepare(env, sc);
  assert.equal(r.code, 4, r.stderr);
  const e = r.json.error as Err;
  assert.equal(e.code, "SYMLINK_ESCAPE");
  assert.ok(e.details.links.some((l) => l.path === path && l.source === source), JSON.stringify(e.details));
  assert.deepEqual(await made(env, sc), before, "no branch, worktree or run was made");
}

/** The worker branches, worktrees and runs that exist. */
async function made(env: SpotEnv, sc: Scenario): Promise<string[]> {
  const runs = await Array.fromAsync(Deno.readDir(join(env.stateDir, "runs"))).catch(() => []);
  return [
    await sh(sc.repo, "git", "branch", "--list", "pi-worker/*"),
    await sh(sc.repo, "git", "worktree", "list"),
    ...runs.map((r) => r.name).sort(),
  ];
}

async function scenario(): Promise<{ env: SpotEnv; sc: Scenario; outside: string }> {
  const env = await spotEnv();
  const sc = await demoScenario(env.dir);
  const outside = join(env.dir, "outside");
  await Deno.mkdir(outside);
  await Deno.writeTextFile(join(outside, "victim.txt"), "the user's file\n");
  return { env, sc, outside };
}

Deno.test("a tracked absolute link out of the repository is SYMLINK_ESCAPE at prepare, and nothing is made", async () => {
  const { env, sc, outside } = await scenario();
  await commitLink(sc.repo, "docs/victim.txt", join(outside, "victim.txt"));
  await assertRefused(env, sc, "docs/victim.txt", "tracked");
  await Deno.remove(env.dir, { recursive: true });
});

Deno.test("untracked and unstaged links that climb out are refused; an ignored one, never copied, is not", async () => {
  const { env, sc } = await scenario();
  await Deno.writeTextFile(join(sc.repo, ".git", "info", "exclude"), "ignored-link\n");
  await Deno.symlink("../outside", join(sc.repo, "ignored-link"));
  await Deno.symlink("../../outside/victim.txt", join(sc.repo, "notes-link"));
  await assertRefused(env, sc, "notes-link", "untracked");
  await Deno.remove(join(sc.repo, "notes-link"));
  // A tracked file turned into a link in the working tree (not staged): the snapshot would copy the link.
  await Deno.remove(join(sc.repo, "README.md"));
  await Deno.symlink("../outside/victim.txt", join(sc.repo, "README.md"));
  await assertRefused(env, sc, "README.md", "changed");
  await sh(sc.repo, "git", "checkout", "--", "README.md");
  const ok = await prepare(env, sc);
  assert.equal(ok.code, 0, `the ignored link is not the worker's: ${ok.stderr}`);
  await Deno.remove(env.dir, { recursive: true });
});

Deno.test("links are followed as the kernel does: '..' after a linked directory and chains are caught", async () => {
  const { env, sc } = await scenario();
  // sub/d is the root itself (inside); "z -> sub/d/../.." reads like "." but climbs above the root.
  await commitLink(sc.repo, "sub/d", "..");
  await commitLink(sc.repo, "inside", "README.md");
  const fine = await prepare(env, sc);
  assert.equal(fine.code, 0, `links that stay inside are fine: ${fine.stderr}`);
  await commitLink(sc.repo, "z", "sub/d/../..");
  await assertRefused(env, sc, "z", "tracked");
  await sh(sc.repo, "git", "rm", "-q", "z");
  await sh(sc.repo, "git", "commit", "-q", "-m", "drop z");
  await commitLink(sc.repo, "c1", "c2");
  await commitLink(sc.repo, "c2", "sub/d/..");
  await assertRefused(env, sc, "c1", "tracked");
  await Deno.remove(env.dir, { recursive: true });
});

Deno.test("an escaping link among the ignored files .worktreeinclude copies in is refused too", async () => {
  const { env, sc } = await scenario();
  await Deno.writeTextFile(join(sc.repo, ".gitignore"), ".env.local\n");
  await Deno.writeTextFile(join(sc.repo, ".worktreeinclude"), ".env.local\n");
  await sh(sc.repo, "git", "add", ".gitignore", ".worktreeinclude");
  await sh(sc.repo, "git", "commit", "-q", "-m", "include .env.local");
  await Deno.symlink("/etc/hostname", join(sc.repo, ".env.local"));
  await assertRefused(env, sc, ".env.local", "worktreeinclude");
  await Deno.remove(env.dir, { recursive: true });
});

Deno.test("without the refusal, a worker under --sandbox none writes through the link to the user's file", async () => {
  // The attack the refusal stops, shown on spot's own worktree by hand: a link the source would hand over.
  const { env, sc, outside } = await scenario();
  const worktree = join(env.dir, "by-hand");
  await commitLink(sc.repo, "docs/victim.txt", join(outside, "victim.txt"));
  await sh(sc.repo, "git", "worktree", "add", "-q", worktree);
  await Deno.writeTextFile(join(worktree, "docs", "victim.txt"), "written by the worker\n");
  assert.equal(await Deno.readTextFile(join(outside, "victim.txt")), "written by the worker\n");
  await Deno.remove(env.dir, { recursive: true });
});
