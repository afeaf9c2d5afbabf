import assert from "node:assert/strict";
import { descendants, identity, leftovers, orphansOf, parseStat, type ProcInfo } from "./process_tree.ts";

const p = (
  pid: number,
  ppid: number,
  pgrp = pid,
  session = pgrp,
  start = pid * 10,
  state = "S",
): ProcInfo => ({
  pid,
  ppid,
  pgrp,
  session,
  start,
  state,
});

Deno.test("parseStat() reads a stat line whose name holds spaces and parentheses", () => {
  const line = "4242 (a (b) c) S 100 4242 4242 0 -1 4194560 1 0 0 0 0 0 0 0 20 0 1 0 987654 0 0";
  assert.deepEqual(parseStat(line), {
    pid: 4242,
    ppid: 100,
    pgrp: 4242,
    session: 4242,
    start: 987654,
    state: "S",
  });
  assert.equal(parseStat("garbage"), null);
});

Deno.test("descendants() follows parent links from the root, whatever groups the children moved to", () => {
  const table = [p(1, 0), p(10, 1), p(11, 10, 11, 11), p(12, 11, 50, 50), p(20, 1), p(13, 10)];
  assert.deepEqual(descendants(table, 10).map((x) => x.pid).sort(), [10, 11, 12, 13]);
  assert.deepEqual(descendants(table, 99), []);
});

Deno.test("leftovers() finds remembered processes and whatever runs in a group or session they led", () => {
  const daemon = p(30, 1, 30, 30);
  const seen = new Map([[identity(daemon), daemon]]);
  const table = [
    p(1, 0),
    daemon,
    p(31, 1, 30, 30), // the daemon's child, reparented to init after a double fork
    p(32, 1, 32, 30), // its own group, still the daemon's session
    p(40, 1), // unrelated
    p(33, 30, 30, 30, 330, "Z"), // a zombie: already dead
    p(7, 1, 30, 30), // spot itself in that session (it never is, but it must never be killed)
  ];
  const found = leftovers(table, seen, 7).map((x) => `${x.pid}:${x.start}`);
  assert.deepEqual(found, ["30:300", "31:310", "32:320"]);
  const reused = leftovers([p(30, 1, 30, 30, 999), p(35, 30, 30, 30, 1000)], seen, 7);
  assert.deepEqual(
    reused,
    [],
    "a later process that got the daemon's pid, and its group, are someone else's",
  );
});

Deno.test("orphansOf() finds live children of spot started since the launch, never older ones, zombies or its own", () => {
  const table = [
    p(50, 7, 50, 50, 100),
    p(51, 7, 51, 51, 400),
    p(52, 7, 52, 52, 500, "Z"),
    p(53, 1, 53, 53, 600),
    p(54, 7, 54, 54, 700),
  ];
  assert.deepEqual(orphansOf(table, 7, 300).map((x) => x.pid), [51, 54]);
  assert.deepEqual(
    orphansOf(table, 7, 300, new Set([54])).map((x) => x.pid),
    [51],
    "a child spot started itself",
  );
});
