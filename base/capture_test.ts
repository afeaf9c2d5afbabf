import assert from "node:assert/strict";
import { Capture, pump } from "./capture.ts";

/** A stream of the given byte chunks, as a child's pipe delivers them. */
function chunks(...parts: number[][]): ReadableStream<Uint8Array> {
  return new ReadableStream({
    start(c) {
      for (const p of parts) c.enqueue(new Uint8Array(p));
      c.close();
    },
  });
}

Deno.test("pump decodes a character split across chunks, and hands on each line without its CR", async () => {
  const bytes = [...new TextEncoder().encode("é ok\r\nlast ✓")];
  // "é" is two bytes and "✓" three: cut inside each.
  const lines: string[] = [];
  const capture = new Capture(1_000, (l) => lines.push(l));
  await pump(
    chunks(bytes.slice(0, 1), bytes.slice(1, bytes.length - 1), bytes.slice(bytes.length - 1)),
    capture,
  );
  assert.equal(capture.text, "é ok\r\nlast ✓");
  assert.deepEqual(lines, ["é ok", "last ✓"]);
  assert.equal(capture.truncated, false);
});

Deno.test("pump keeps the first max characters and says more came", async () => {
  const capture = new Capture(3);
  await pump(chunks([...new TextEncoder().encode("abcdef")]), capture);
  assert.equal(capture.text, "abc");
  assert.equal(capture.truncated, true);
});

Deno.test("pump keeps what came before the stream failed", async () => {
  const stream = new ReadableStream<Uint8Array>({
    pull(c) {
      c.enqueue(new TextEncoder().encode("partial"));
      c.error(new Error("cut"));
    },
  });
  const capture = new Capture(100);
  await pump(stream, capture);
  assert.equal(capture.text, "partial");
});
