import assert from "node:assert/strict";
import { createProgressLine } from "./progress_line.ts";

Deno.test("createProgressLine() redraws one line in place with the latest text and the elapsed time", () => {
  const out: string[] = [];
  let t = 1_000;
  const line = createProgressLine((s) => out.push(s), () => t);
  t = 3_500;
  line.update("run r1: 4 events");
  line.stop();
  assert.equal(out[0], "\r\x1b[K[spot] starting (0.0s)");
  assert.equal(out[1], "\r\x1b[K[spot] run r1: 4 events (2.5s)");
  assert.equal(out.at(-1), "\r\x1b[K", "stop() clears the line");
  assert.ok(out.every((s) => !s.includes("\n")), "never scrolls the terminal");
});
