import assert from "node:assert/strict";
import { escapingLinks, MAX_LINK_HOPS } from "./link_escape.ts";

const escapes = (links: Record<string, string>) =>
  escapingLinks(new Map(Object.entries(links))).map((e) => `${e.path}:${e.reason}`);

Deno.test("escapingLinks() keeps links that stay inside, relative or through other links", () => {
  assert.deepEqual(
    escapes({
      "docs/readme": "../README.md",
      "a/b/up": "../..",
      "alias": "src",
      "src/deep/x": "../../alias/y",
      "dangling-inside": "missing/file",
    }),
    [],
  );
});

Deno.test("escapingLinks() refuses absolute targets, even one naming a path inside the repository", () => {
  assert.deepEqual(escapes({ "etc": "/etc/passwd", "self": "/home/me/repo/src" }), [
    "etc:absolute",
    "self:absolute",
  ]);
});

Deno.test("escapingLinks() refuses a relative link that climbs out, a dangling one included", () => {
  assert.deepEqual(escapes({ "up": "..", "sub/out": "../../outside/new-file", "sub/ok": "../sub" }), [
    "sub/out:leaves the tree",
    "up:leaves the tree",
  ]);
});

Deno.test("escapingLinks() follows chains and linked directories before '..', as the kernel does", () => {
  // Lexically "d/../.." is "..": out. But "x -> d/.." with d -> sub/deep is sub: inside, and "y -> d/../../.." is out.
  assert.deepEqual(
    escapes({ "d": "sub/deep", "x": "d/..", "y": "d/../../..", "c1": "c2", "c2": "c3", "c3": "../x" }),
    ["c1:leaves the tree", "c2:leaves the tree", "c3:leaves the tree", "y:leaves the tree"],
  );
  // `sub/d -> ..` is the root: "z -> sub/d/../.." looks like "." but really climbs above the root.
  assert.deepEqual(escapes({ "sub/d": "..", "z": "sub/d/../.." }), ["z:leaves the tree"]);
  // A chain that ends in an absolute link escapes at its last hop.
  assert.deepEqual(escapes({ "first": "second", "second": "/tmp" }), ["first:absolute", "second:absolute"]);
});

Deno.test("escapingLinks() refuses a loop or a chain longer than the kernel would follow", () => {
  assert.deepEqual(escapes({ "a": "b", "b": "a" }), ["a:too many links", "b:too many links"]);
  const chain: Record<string, string> = {};
  for (let i = 0; i <= MAX_LINK_HOPS + 1; i++) chain[`l${i}`] = `l${i + 1}`;
  assert.ok(escapes(chain).includes("l0:too many links"));
});
