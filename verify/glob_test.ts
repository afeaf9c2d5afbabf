import assert from "node:assert/strict";
import { isSpotError } from "../errors.ts";
import { globToRegExp, matchesForbidden, matchesGlob } from "./glob.ts";

const expectGlob = (pattern: string, yes: string[], no: string[]) => {
  for (const path of yes) assert.ok(matchesGlob(path, pattern), `${pattern} should match ${path}`);
  for (const path of no) assert.ok(!matchesGlob(path, pattern), `${pattern} should not match ${path}`);
};

Deno.test("matchesGlob() lets ** span any number of segments, including none", () => {
  expectGlob("src/**", ["src/a.ts", "src/a/b.ts", "src"], ["srcx/a.ts", "lib/src/a.ts"]);
  expectGlob("src/**/x.ts", ["src/x.ts", "src/a/x.ts", "src/a/b/x.ts"], ["src/ax.ts", "lib/x.ts"]);
  expectGlob("**/test.ts", ["test.ts", "a/b/test.ts"], ["a/mytest.ts"]);
  expectGlob("**", ["a", "a/b/c"], []);
  expectGlob("a/**/**/b", ["a/b", "a/x/y/b"], ["a/xb"]);
});

Deno.test("matchesGlob() keeps * and ? inside one segment, dotfiles included", () => {
  expectGlob("src/*.ts", ["src/a.ts", "src/.hidden.ts"], ["src/a/b.ts", "src/a.tsx"]);
  expectGlob("?.md", ["a.md"], ["ab.md", "/.md"]);
  expectGlob("*", [".env", "README"], ["a/b"]);
});

Deno.test("matchesGlob() reads classes, negated classes and ranges", () => {
  expectGlob("[abc].ts", ["a.ts", "c.ts"], ["d.ts", "ab.ts"]);
  expectGlob("[!a].ts", ["b.ts"], ["a.ts", "/.ts"]);
  expectGlob("v[0-9].txt", ["v7.txt"], ["vx.txt"]);
  expectGlob("[]]x", ["]x"], ["x"]);
  expectGlob("a[", ["a["], ["a"]);
});

Deno.test("matchesGlob() expands {a,b} alternatives, nested too", () => {
  expectGlob("src/*.{ts,tsx}", ["src/a.ts", "src/a.tsx"], ["src/a.js"]);
  expectGlob("{docs,src/{a,b}}/**", ["docs/x", "src/a/y", "src/b"], ["src/c/y"]);
  expectGlob("{x}.ts", ["{x}.ts"], ["x.ts"]);
});

Deno.test("matchesGlob() reads a trailing slash as the directory and everything below", () => {
  expectGlob("docs/", ["docs/a.md", "docs/a/b.md"], ["docsx/a.md", "a/docs/b.md"]);
});

Deno.test("matchesGlob() escapes regex syntax and honours backslash escapes", () => {
  expectGlob("a.b+(c)", ["a.b+(c)"], ["axb+(c)", "a.bb(c)"]);
  expectGlob("\\*.ts", ["*.ts"], ["a.ts"]);
  expectGlob("./src/*.ts", ["src/a.ts"], []);
});

Deno.test("globToRegExp() rejects patterns that cannot compile or expand too far", () => {
  const invalid = (e: unknown) => isSpotError(e, "CONFIG_INVALID");
  assert.throws(() => globToRegExp("[z-a]"), invalid);
  assert.throws(() => globToRegExp("{a,b}".repeat(9)), invalid);
  assert.ok(globToRegExp("{a,b}".repeat(8)) instanceof RegExp);
});

Deno.test("matchesForbidden() matches exactly, even names full of glob syntax", () => {
  assert.ok(matchesForbidden("a[1].txt", "a[1].txt"));
  assert.ok(!matchesForbidden("a1.txt", "a[2].txt"));
});

Deno.test("matchesForbidden() checks a pattern without / against every segment", () => {
  assert.ok(matchesForbidden("config/.env", ".env"));
  assert.ok(matchesForbidden("certs/deep/server.pem", "*.pem"));
  assert.ok(matchesForbidden("a/node_modules/x/index.js", "node_modules"));
  assert.ok(matchesForbidden("pkg/secrets/key.txt", "secrets/"));
  assert.ok(!matchesForbidden("src/environment.ts", ".env"));
  assert.ok(!matchesForbidden("config/.envrc", ".env"));
  assert.ok(!matchesForbidden("docs/pem.md", "*.pem"));
});

Deno.test("matchesForbidden() also blocks everything below a matching directory", () => {
  assert.ok(matchesForbidden("config/secrets/prod.json", "config/secrets"));
  assert.ok(matchesForbidden(".github/workflows/ci.yml", ".github/**"));
  assert.ok(!matchesForbidden("config/secrets.md", "config/secrets"));
  assert.ok(!matchesForbidden("other/secrets/prod.json", "config/secrets"));
});

Deno.test("matchesForbidden() ignores case and the spellings lenient filesystems accept", () => {
  assert.ok(matchesForbidden(".GIT/config", ".git"));
  assert.ok(matchesForbidden("sub/.git./hooks/pre-commit", ".git"));
  assert.ok(matchesForbidden("sub/.g\u200bit/hooks/pre-commit", ".git"));
  assert.ok(matchesForbidden(".GitHub/workflows/ci.yml", ".github/workflows/**"));
  assert.ok(matchesForbidden("app/.ENV", "**/.env"));
  assert.ok(!matchesForbidden("sub/.gitignore", ".git"));
  assert.ok(!matchesForbidden(".github-templates/a.yml", ".github/workflows/**"));
});
