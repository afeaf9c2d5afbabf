import assert from "node:assert/strict";
import * as node from "node:path/posix";
import * as ours from "./path.ts";

/** Every path of up to five pieces from an alphabet of the cases that differ: empty, dots, doubled slashes. */
function paths(): string[] {
  const pieces = ["", "/", "//", "a", "b.ts", ".", "..", ".x", "a.", "..."];
  const out = new Set<string>([""]);
  let frontier = [""];
  for (let depth = 0; depth < 4; depth++) {
    const next: string[] = [];
    for (const p of frontier) {
      for (const piece of pieces) {
        const q = p + (p && piece && !p.endsWith("/") && !piece.startsWith("/") ? "/" : "") + piece;
        if (!out.has(q)) {
          out.add(q);
          next.push(q);
        }
      }
    }
    frontier = next;
  }
  return [...out];
}

const ALL = paths();

Deno.test("base/path gives node:path/posix's results for every generated path", () => {
  assert.ok(ALL.length > 2_000, `only ${ALL.length} paths`);
  for (const p of ALL) {
    assert.equal(ours.normalize(p), node.normalize(p), `normalize(${JSON.stringify(p)})`);
    assert.equal(ours.dirname(p), node.dirname(p), `dirname(${JSON.stringify(p)})`);
    assert.equal(ours.basename(p), node.basename(p), `basename(${JSON.stringify(p)})`);
    assert.equal(ours.isAbsolute(p), node.isAbsolute(p), `isAbsolute(${JSON.stringify(p)})`);
    assert.equal(ours.resolve(p), node.resolve(p), `resolve(${JSON.stringify(p)})`);
    assert.equal(ours.join(p, "c"), node.join(p, "c"), `join(${JSON.stringify(p)}, "c")`);
    assert.equal(ours.join("c", p), node.join("c", p), `join("c", ${JSON.stringify(p)})`);
  }
  assert.equal(ours.join(), node.join());
  assert.equal(ours.resolve(), node.resolve());
});

Deno.test("base/path's two-path functions agree with node:path/posix on pairs", () => {
  const some = ALL.filter((_, i) => i % 7 === 0);
  for (const a of some) {
    for (const b of some.slice(0, 60)) {
      assert.equal(
        ours.relative(a, b),
        node.relative(a, b),
        `relative(${JSON.stringify(a)}, ${JSON.stringify(b)})`,
      );
      assert.equal(
        ours.resolve(a, b),
        node.resolve(a, b),
        `resolve(${JSON.stringify(a)}, ${JSON.stringify(b)})`,
      );
      assert.equal(ours.join(a, b), node.join(a, b), `join(${JSON.stringify(a)}, ${JSON.stringify(b)})`);
    }
  }
  assert.equal(ours.sep, node.sep);
  assert.equal(ours.delimiter, node.delimiter);
});

Deno.test("fromFileUrl gives node:url's fileURLToPath for file URLs, and refuses what it refuses", async () => {
  const { fileURLToPath } = await import("node:url");
  for (const url of [import.meta.url, "file:///a%20b/c.ts", "file:///%C3%A9/x", "file:///tmp/", "file:///"]) {
    assert.equal(ours.fromFileUrl(url), fileURLToPath(url), url);
  }
  assert.throws(() => ours.fromFileUrl("https://example.invalid/x.ts"));
  assert.throws(() => ours.fromFileUrl("file:///a%2Fb"));
});
