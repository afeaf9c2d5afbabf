/**
 * spot's JavaScript copy of itself (boot/copy.ts), on a copy of this checkout: a command runs from the copy
 * when every module it may load matches its stamp, and never from a copy older than a source it may load.
 * What the copy runs is seen by writing a marker into the copy's own version module: `spot --version`
 * prints the marker only when it ran from the copy.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { inCheckout, spotIn as spot, spotRun } from "../tests/fixtures/copy_checkout.ts";
import { COPY_DIR, type CopyPointer, type CopySet, racyHold } from "./copy_stamps.ts";
import { buildCopy } from "./copy_build.ts";
import { lateHook } from "./copy_late.ts";

const MARKER = "from-the-copy";

async function pointerOf(root: string): Promise<CopyPointer> {
  return JSON.parse(await Deno.readTextFile(join(root, COPY_DIR, "current.json")));
}

/**
 * Writes the marker into the current build's version module: into the chunk that holds it, after the line
 * the bundler heads each module's code with.
 */
async function mark(root: string): Promise<string> {
  const { build } = await pointerOf(root);
  const head = "/.mods/base/version.js\n";
  for await (const entry of Deno.readDir(join(root, COPY_DIR, build))) {
    const file = join(root, COPY_DIR, build, entry.name);
    if (!entry.isFile || !entry.name.endsWith(".js")) continue;
    const text = await Deno.readTextFile(file);
    const at = text.indexOf(head);
    if (at < 0) continue;
    const rest = text.slice(at);
    assert.match(rest, /config\.version/);
    await Deno.writeTextFile(
      file,
      text.slice(0, at) + rest.replace("config.version", JSON.stringify(MARKER)),
    );
    return build;
  }
  throw new Error(`no file of build ${build} holds base/version.js`);
}

/** Rewrites a source module in place (same inode, new ctime), as an editor saving it would. */
async function edit(root: string, rel: string, from: string, to: string): Promise<void> {
  const path = join(root, rel);
  const text = await Deno.readTextFile(path);
  assert.ok(text.includes(from), `${rel} holds ${from}`);
  await Deno.writeTextFile(path, text.replace(from, to));
}

Deno.test("a command runs from the copy while its modules match, and never from a copy older than them", async () => {
  await inCheckout(async (root, version) => {
    assert.equal(await spot(root, ["--version"]), version, "the first command builds the copy");
    const first = await mark(root);
    assert.equal(await spot(root, ["--version"]), MARKER, "the copy runs while it holds");
    assert.equal(await spot(root, ["--version"], { SPOT_FROM_SOURCE: "1" }), version, "SPOT_FROM_SOURCE=1");

    // A module `--version` never loads changes: the copy still holds for it.
    await edit(root, "verbs/prepare.ts", "export", "/* edited */ export");
    assert.equal(await spot(root, ["--version"]), MARKER);

    // A module it loads changes: the old copy must not run (without the stamp check, the marker would).
    await edit(root, "base/version.ts", "config.version", "`edited-${config.version}`");
    assert.equal(await spot(root, ["--version"]), `edited-${version}`);
    const second = (await pointerOf(root)).build;
    assert.notEqual(second, first, "a new build was made");

    // The same size, the old mtime put back: ctime tells, or within the stamp's second the content (racy).
    await mark(root);
    const path = join(root, "base", "version.ts");
    const before = await Deno.stat(path);
    await edit(root, "base/version.ts", "edited-", "editeD-");
    await Deno.utime(path, before.atime!, before.mtime!);
    assert.equal(await spot(root, ["--version"]), `editeD-${version}`);

    // The builder changes, no module does: a build made by the old builder is not current.
    const third = await mark(root);
    await edit(root, "boot/copy_graph.ts", "/**", "/** (edited) */\n/**");
    assert.equal(await spot(root, ["--version"]), `editeD-${version}`);
    assert.notEqual((await pointerOf(root)).build, third);
  });
});

Deno.test("no build is made beside another under way, nor in a checkout spot cannot write: the sources run", async () => {
  await inCheckout(async (root, version) => {
    await Deno.mkdir(join(root, COPY_DIR));
    await Deno.writeTextFile(join(root, COPY_DIR, "build.lock"), "1\n");
    assert.equal(await spot(root, ["--version"]), version);
    assert.equal((await Array.fromAsync(Deno.readDir(join(root, COPY_DIR)))).length, 1, "only the lock");
    // `--timings` says where spot ran from, and why.
    assert.match(await timings(root), /^from the TypeScript sources: another build is under way/m);
    await Deno.remove(join(root, COPY_DIR), { recursive: true });
    await Deno.writeTextFile(join(root, COPY_DIR), "a file where the folder would be\n");
    assert.equal(await spot(root, ["--version"]), version);
    assert.match(await timings(root), /^from the TypeScript sources: \.js-copy\/ cannot be made/m);
  });
});

/** The timings table `spot --timings --version` prints in `root`. */
async function timings(root: string, env: Record<string, string> = {}): Promise<string> {
  const r = await spotRun(root, ["--timings", "--version"], env);
  assert.equal(r.exitCode, 0, r.stderr);
  return r.stderr;
}

Deno.test("--timings says whether spot ran from its copy, what the check and a build took, or why not", async () => {
  await inCheckout(async (root) => {
    const first = await timings(root);
    assert.match(first, /^from the JavaScript copy/m);
    assert.match(first, /ms +1x {2}build the JavaScript copy$/m);
    const second = await timings(root);
    assert.match(second, /ms +1x {2}check the JavaScript copy \(\d+ files\)$/m);
    assert.doesNotMatch(second, /build the JavaScript copy/);
    for (const value of ["1", "true"]) {
      assert.match(
        await timings(root, { SPOT_FROM_SOURCE: value }),
        /^from the TypeScript sources: SPOT_FROM_SOURCE=/m,
      );
    }
    assert.match(await timings(root, { SPOT_FROM_SOURCE: "0" }), /^from the JavaScript copy/m);
    // A build that failed leaves the sources running for a while, and says so.
    await Deno.remove(join(root, COPY_DIR, "current.json"));
    const failed = { deno: Deno.version.deno, at: Date.now(), error: "made up" };
    await Deno.writeTextFile(join(root, COPY_DIR, "failed.json"), JSON.stringify(failed));
    assert.match(
      await timings(root),
      /^from the TypeScript sources: a build failed in the last ten minutes/m,
    );
  });
});

Deno.test("a module loaded late that changed since the build is refused, and the build dropped", async () => {
  await inCheckout(async (root) => {
    await spot(root, ["--version"]);
    const { build } = await pointerOf(root);
    const rootUrl = new URL(`file://${root}/`).href;
    const copyUrl = `${rootUrl}${COPY_DIR}/${build}/`;
    const hook = lateHook(root, rootUrl, copyUrl, new Set());
    assert.equal(await hook(`${rootUrl}verbs/inspect.ts`), `${copyUrl}verbs/inspect.js`);
    await edit(root, "git/land.ts", "export", "/* edited */ export");
    assert.equal(await hook(`${rootUrl}git/land.ts`), null, "the changed module itself");
    // verbs/integrate.ts imports git/land.ts as it loads: a change there refuses integrate's module.
    assert.equal(await hook(`${rootUrl}verbs/integrate.ts`), null);
    await assert.rejects(Deno.stat(join(root, COPY_DIR, "current.json")), Deno.errors.NotFound);
    assert.equal(await hook(`${rootUrl}verbs/not-in-the-build.ts`), null);
    // A build removed under a long-running process (a server) serves it no more.
    await Deno.remove(join(root, COPY_DIR, build), { recursive: true });
    const orphan = lateHook(root, rootUrl, copyUrl, new Set());
    assert.equal(await orphan(`${rootUrl}verbs/inspect.ts`), null);
  });
});

Deno.test("a build spot did not write (a set that names nothing, landed by a diff) never runs", async () => {
  await inCheckout(async (root, version) => {
    const forged = join(root, COPY_DIR, "b-forged");
    await Deno.mkdir(join(forged, "words"), { recursive: true });
    await Deno.mkdir(join(forged, "cli"));
    await Deno.writeTextFile(
      join(forged, "cli", "main.js"),
      'export const main = () => { console.log("forged"); return 0; };\n',
    );
    for (const word of ["--version", "all"]) {
      await Deno.writeTextFile(
        join(forged, "words", `${word}.json`),
        JSON.stringify({ paths: [], stamps: [] }),
      );
    }
    const pointer: CopyPointer = { schemaVersion: 2, deno: Deno.version.deno, build: "b-forged" };
    await Deno.writeTextFile(join(root, COPY_DIR, "current.json"), JSON.stringify(pointer));
    assert.equal(await spot(root, ["--version"]), version);
    assert.notEqual((await pointerOf(root)).build, "b-forged", "a build of spot's own replaced it");
  });
});

Deno.test("a file changed in the second its stamp was taken is judged by its content too", async () => {
  await inCheckout(async (root, version) => {
    // Changed just before the build: Deno's ctime is in whole seconds, so its stamp alone could not tell
    // a second write in that second that keeps its size and puts its mtime back.
    await edit(root, "base/version.ts", "config.version", "`edited-${config.version}`");
    const built = await buildCopy(root);
    assert.ok(built);
    const set = JSON.parse(
      await Deno.readTextFile(join(root, COPY_DIR, built.build, "words", "--version.json")),
    ) as CopySet;
    const at = set.paths.indexOf("base/version.ts");
    assert.equal(typeof set.racy?.[at], "string", "hashed, since it changed in the stamp's second");
    await mark(root);
    assert.equal(await spot(root, ["--version"]), `edited-${MARKER}`, "unchanged content: the copy runs");
    assert.equal(await racyHold(root, set), true);
    // Whether this lands in the stamp's second depends on the machine's pace; the content tells either way.
    const path = join(root, "base", "version.ts");
    const before = await Deno.stat(path);
    await edit(root, "base/version.ts", "edited-", "editeD-");
    await Deno.utime(path, before.atime!, before.mtime!);
    assert.equal(await racyHold(root, set), false);
    assert.equal(await spot(root, ["--version"]), `editeD-${version}`);
  });
});
