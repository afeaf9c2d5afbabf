import assert from "node:assert/strict";
import { enableTimings, processLabel, recordTiming, timed, timingsTable } from "./timings.ts";

Deno.test("processLabel names git by subcommand, a step by its script, and what bwrap wraps", () => {
  assert.equal(processLabel(["/usr/bin/git", "-C", "/r", "-c", "a=b", "rev-parse", "HEAD"]), "git rev-parse");
  assert.equal(
    processLabel(["/usr/bin/deno", "run", "--allow-read=/x", "/s/steps/check_step.ts"]),
    "deno check_step.ts",
  );
  assert.equal(
    processLabel(["bwrap", "--ro-bind", "/", "/", "--", "/usr/bin/deno", "run", "a.ts"]),
    "bwrap deno a.ts",
  );
  assert.equal(processLabel(["bwrap", "--version"]), "bwrap");
  assert.equal(
    processLabel(["bwrap", "--", "/usr/bin/prlimit", "--nproc=64", "/bin/sh", "-c", "x"]),
    "bwrap sh",
  );
  assert.equal(processLabel(["bwrap", "--"]), "bwrap ?");
  assert.equal(processLabel([]), "?");
});

Deno.test("the table sums each label and lists the largest first", async () => {
  enableTimings();
  recordTiming("small", 1);
  recordTiming("big", 5);
  recordTiming("big", 6);
  await timed("timed", () => new Promise((r) => setTimeout(r, 5)));
  const lines = timingsTable(20).split("\n");
  assert.match(lines[0], /20\.0 ms wall/);
  const at = (label: string) => lines.findIndex((l) => l.endsWith(`  ${label}`));
  assert.match(lines[at("big")], /11\.0 ms +2x +big/);
  // The timed row took at least its 5 ms sleep (its rank against "big" depends on the machine's load).
  assert.ok(at("small") > at("timed") && at("small") > at("big"), lines.join("\n"));
});
