import assert from "node:assert/strict";
import { createProgressLine, progressText } from "./progress_line.ts";

Deno.test("createProgressLine() redraws one line in place with the latest text and the elapsed time", () => {
  const out: string[] = [];
  let t = 1_000;
  const line = createProgressLine((s) => out.push(s), { now: () => t });
  t = 3_500;
  line.update("run r1: 4 events");
  line.stop();
  assert.equal(out[0], "\r\x1b[K[spot] starting (0.0s)");
  assert.equal(out[1], "\r\x1b[K[spot] run r1: 4 events (2.5s)");
  assert.equal(out.at(-1), "\r\x1b[K", "stop() clears the line");
  assert.ok(out.every((s) => !s.includes("\n")), "never scrolls the terminal");
});

Deno.test("progressText() drops a worker's terminal escapes and newlines from the text it shows", () => {
  const shown = progressText("run r1: edit \x1b]52;c;aGk=\x07src/\x1b[2Ja.ts\nrm -rf", 1000);
  assert.equal(shown, "[spot] run r1: edit src/a.ts rm -rf (1.0s)");
});

Deno.test("progressText() cuts the line to the terminal's width, keeping the clock", () => {
  const shown = progressText(`run r1: edit ${"d/".repeat(60)}a.ts · 9 events`, 12_300, 40);
  assert.equal(shown.length, 39);
  assert.ok(shown.endsWith("… (12.3s)"), shown);
  assert.ok(shown.startsWith("[spot] run r1: edit d/"), shown);
});
