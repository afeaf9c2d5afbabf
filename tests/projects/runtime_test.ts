/**
 * A runner installed under HOME, as nvm installs one (`~/.nvm/versions/node/vX/{bin,lib}`): the check names
 * `npm`, spot finds it on the user's PATH, and the sandbox shows that runtime's own `bin` and `lib`
 * read-only and nothing else of HOME. The project's test reports which node ran it and tries to read a key in
 * `~/.ssh` and the npmrc beside the runtime; run outside the sandbox the same test reads them and fails.
 */
import assert from "node:assert/strict";
import { dirname, join } from "node:path";
import { denoDir } from "../../isolation/step_runner.ts";
import { sh } from "../helpers.ts";
import { spawnProcess } from "../../sandbox/spawn.ts";
import { which } from "../../sandbox/which.ts";
import { checkOutput, projectLoop } from "./harness.ts";

const NODE_VERSION = "v22.0.0";

function hostBinary(name: string): string {
  const found = which(name, Deno.env.get("PATH") ?? "/usr/bin:/bin");
  if (!found) throw new Error(`${name} is not on PATH; tests/setup.sh installs it`);
  return found;
}

async function nvmHome(): Promise<{ home: string; prefix: string; secrets: string[] }> {
  const home = await Deno.makeTempDir({ prefix: "spot-nvm-home-" });
  const prefix = join(home, ".nvm", "versions", "node", NODE_VERSION);
  await Deno.mkdir(join(prefix, "bin"), { recursive: true });
  await Deno.mkdir(join(prefix, "lib", "node_modules"), { recursive: true });
  await Deno.copyFile(hostBinary("node"), join(prefix, "bin", "node"));
  await Deno.chmod(join(prefix, "bin", "node"), 0o755);
  const npmPackage = dirname(dirname(Deno.realPathSync(hostBinary("npm"))));
  await sh(home, "cp", "-a", npmPackage, join(prefix, "lib", "node_modules", "npm"));
  await Deno.symlink("../lib/node_modules/npm/bin/npm-cli.js", join(prefix, "bin", "npm"));
  // A global npm CLI: its bin entry is a symlink, and its script finds its modules from its real path.
  const hello = join(home, ".npm-global", "lib", "node_modules", "hello");
  await Deno.mkdir(join(hello, "bin"), { recursive: true });
  await Deno.mkdir(join(hello, "lib"), { recursive: true });
  await Deno.writeTextFile(join(hello, "lib", "msg.js"), 'module.exports = "hello from a global CLI";\n');
  await Deno.writeTextFile(
    join(hello, "bin", "hello.js"),
    '#!/usr/bin/env node\nconsole.log(require("../lib/msg.js"));\n',
    { mode: 0o755 },
  );
  await Deno.mkdir(join(home, ".npm-global", "bin"), { recursive: true });
  await Deno.symlink("../lib/node_modules/hello/bin/hello.js", join(home, ".npm-global", "bin", "hello"));
  const secrets = [join(home, ".ssh", "id_ed25519"), join(prefix, "etc", "npmrc")];
  for (const file of secrets) {
    await Deno.mkdir(join(file, ".."), { recursive: true });
    await Deno.writeTextFile(file, "secret-canary\n", { mode: 0o600 });
  }
  return { home, prefix, secrets };
}

function testFile(prefix: string, secrets: string[]): string {
  return [
    'const test = require("node:test");',
    'const assert = require("node:assert");',
    'const fs = require("node:fs");',
    'const { add } = require("../add.js");',
    'test("add() adds", () => assert.strictEqual(add(2, 3), 5));',
    'test("the runtime under HOME runs", () => {',
    '  console.log("runtime " + process.execPath);',
    `  assert.ok(process.execPath.startsWith(${JSON.stringify(prefix)}));`,
    "});",
    'test("the rest of HOME stays unreadable", () => {',
    `  for (const file of ${JSON.stringify(secrets)}) assert.throws(() => fs.readFileSync(file), file);`,
    "});",
    "",
  ].join("\n");
}

Deno.test("a check whose runner lives under HOME (nvm layout) finds it inside bwrap and sees nothing else of HOME", async () => {
  const { home, prefix, secrets } = await nvmHome();
  try {
    const files = {
      "package.json":
        JSON.stringify({ name: "nvm-project", version: "1.0.0", scripts: { test: "node --test" } }) + "\n",
      "add.js": "exports.add = (a, b) => a - b;\n",
      "test/add.test.js": testFile(prefix, secrets),
    };
    const r = await projectLoop({
      files,
      fix: { file: "add.js", content: "exports.add = (a, b) => a + b;\n" },
      allowedPaths: ["add.js"],
      lockedPaths: ["test/**"],
      verification: [
        { argv: ["npm", "test"], timeoutSeconds: 120, env: { NPM_CONFIG_UPDATE_NOTIFIER: "false" } },
        { argv: ["hello"], timeoutSeconds: 60 },
      ],
      spotEnv: {
        HOME: home,
        PATH: `${join(prefix, "bin")}:${join(home, ".npm-global", "bin")}:${
          Deno.env.get("PATH") ?? "/usr/bin:/bin"
        }`,
        DENO_DIR: denoDir((name) => Deno.env.get(name)),
      },
    });
    try {
      const output = await checkOutput(r.runDir);
      assert.equal(r.verify.passed, true, output);
      assert.match(output, new RegExp(`runtime ${prefix}/bin/node`));
      assert.match(output, /hello from a global CLI/);
      assert.equal(r.integrate.status, "integrated", JSON.stringify(r.integrate));
      // The same test outside any sandbox reads the secrets, so the check above could have failed.
      const bare = await spawnProcess([join(prefix, "bin", "node"), "--test"], {
        cwd: r.repo,
        env: { PATH: `${join(prefix, "bin")}:/usr/bin:/bin`, HOME: home },
      });
      assert.notEqual(bare.exitCode, 0);
      assert.match(bare.stdout, /not ok \d+ - the rest of HOME stays unreadable/);
    } finally {
      await Deno.remove(r.env.dir, { recursive: true });
    }
  } finally {
    await Deno.remove(home, { recursive: true });
  }
});
