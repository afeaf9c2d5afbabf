import assert from "node:assert/strict";
import { join } from "node:path";
import { resolveTools, toolLinks, toolRootCandidates } from "./tool_roots.ts";

const H = "/home/u";
const roots = (bin: string, real: string, home: string | null = H) =>
  toolRootCandidates(bin, real, home).map((c) => c.path);

Deno.test("outside HOME a tool gets its install root: the outermost node_modules, or the prefix above bin", () => {
  assert.deepEqual(roots("/w/.workers/node_modules/.bin/pi", "/w/.workers/node_modules/@m/pi/dist/cli.js"), [
    "/w/.workers/node_modules",
    "/w/.workers/node_modules/.bin/pi",
    "/w/.workers/node_modules/@m/pi/dist/cli.js",
  ]);
  assert.deepEqual(roots("/opt/tool/bin/tool", "/opt/tool/bin/tool"), [
    "/opt/tool",
    "/opt/tool/bin",
    "/opt/tool/bin/tool",
  ]);
  assert.deepEqual(roots("/usr/bin/git", "/usr/bin/git"), ["/usr/bin", "/usr/bin/git"], "never /usr");
});

Deno.test("under HOME an npm CLI gets only its own package dir, never the node_modules or prefix around it", () => {
  assert.deepEqual(
    roots(`${H}/.npm-global/bin/pi`, `${H}/.npm-global/lib/node_modules/@m/pi-coding-agent/dist/cli.js`)[0],
    `${H}/.npm-global/lib/node_modules/@m/pi-coding-agent`,
  );
  assert.equal(
    roots(`${H}/.npm-global/bin/x`, `${H}/.npm-global/lib/node_modules/x/cli.js`)[0],
    `${H}/.npm-global/lib/node_modules/x`,
  );
});

Deno.test("under HOME a versioned runtime gets its bin and lib dirs, any other binary only itself", () => {
  const node = `${H}/.nvm/versions/node/v20.1.0/bin/node`;
  assert.deepEqual(roots(node, node), [
    `${H}/.nvm/versions/node/v20.1.0/bin`,
    `${H}/.nvm/versions/node/v20.1.0/lib`,
    node,
  ]);
  const py = `${H}/.pyenv/versions/3.11.7/bin/python3.11`;
  assert.deepEqual(roots(py, py).slice(0, 2), [
    `${H}/.pyenv/versions/3.11.7/bin`,
    `${H}/.pyenv/versions/3.11.7/lib`,
  ]);
  assert.deepEqual(
    roots(`${H}/.cargo/bin/cargo`, `${H}/.cargo/bin/cargo`),
    [`${H}/.cargo/bin/cargo`],
    "never ~/.cargo",
  );
  assert.deepEqual(
    roots(`${H}/.local/bin/tool`, `${H}/.local/bin/tool`),
    [`${H}/.local/bin/tool`],
    "never ~/.local",
  );
  assert.deepEqual(roots(`${H}/bin/x`, `${H}/bin/x`), [`${H}/bin/x`]);
});

Deno.test("resolveTools() never shows a directory that holds a credential file, wherever it is", async () => {
  const dir = await Deno.realPath(await Deno.makeTempDir({ prefix: "spot-toolroots-" }));
  const prefix = join(dir, "opt", "tool");
  await Deno.mkdir(join(prefix, "bin"), { recursive: true });
  await Deno.mkdir(join(prefix, "etc"), { recursive: true });
  await Deno.writeTextFile(join(prefix, "bin", "tool"), "#!/bin/sh\n");
  const clean = resolveTools([join(prefix, "bin", "tool")], null)[0].roots;
  assert.equal(clean[0], prefix);
  await Deno.writeTextFile(join(prefix, "etc", "npmrc"), "//registry/:_authToken=secret\n");
  const narrowed = resolveTools([join(prefix, "bin", "tool")], null)[0].roots;
  assert.deepEqual(
    narrowed,
    [join(prefix, "bin"), join(prefix, "bin", "tool")],
    "the prefix holds etc/npmrc",
  );
  assert.deepEqual(resolveTools([join(dir, "missing")], null)[0], {
    bin: join(dir, "missing"),
    real: null,
    roots: [],
    links: [],
  });
  await Deno.remove(dir, { recursive: true });
});

Deno.test("a versioned runtime's bin symlink into its own lib (nvm's npm) shows that runtime's bin and lib", () => {
  const prefix = `${H}/.nvm/versions/node/v20.1.0`;
  assert.deepEqual(roots(`${prefix}/bin/npm`, `${prefix}/lib/node_modules/npm/bin/npm-cli.js`).slice(0, 2), [
    `${prefix}/bin`,
    `${prefix}/lib`,
  ]);
});

Deno.test("resolveTools() recreates a symlinked binary no shown dir holds, so its script finds its modules", async () => {
  const home = await Deno.realPath(await Deno.makeTempDir({ prefix: "spot-toolroots-home-" }));
  try {
    const pkg = join(home, ".npm-global", "lib", "node_modules", "tsc-like");
    await Deno.mkdir(join(pkg, "bin"), { recursive: true });
    await Deno.mkdir(join(home, ".npm-global", "bin"), { recursive: true });
    await Deno.writeTextFile(join(pkg, "bin", "cli.js"), "require('../lib/main.js')\n");
    const bin = join(home, ".npm-global", "bin", "tsc-like");
    await Deno.symlink("../lib/node_modules/tsc-like/bin/cli.js", bin);
    const [tool] = resolveTools([bin], home);
    assert.deepEqual(tool.roots, [pkg, join(pkg, "bin", "cli.js")], "the package, not the symlink as a file");
    assert.deepEqual(tool.links, [{ path: bin, target: join(pkg, "bin", "cli.js") }]);
    assert.deepEqual(toolLinks([tool], [join(home, ".npm-global")]), [], "a shown root already holds it");
    // A plain file is bound as itself, with no link.
    const plain = join(home, ".npm-global", "bin", "plain");
    await Deno.writeTextFile(plain, "#!/bin/sh\n");
    assert.deepEqual(resolveTools([plain], home)[0].links, []);
  } finally {
    await Deno.remove(home, { recursive: true });
  }
});
