import assert from "node:assert/strict";
import type { SpotEvent } from "../schemas/events.ts";
import type { ProcInfo } from "../worker/process_tree.ts";
import { openSteps } from "./stop.ts";

const BOOT = Date.parse("2026-01-01T00:00:00Z");
const AT = "2026-01-01T01:00:00.000Z";
/** Clock ticks (100 a second) since BOOT for a wall-clock time. */
const ticks = (iso: string) => (Date.parse(iso) - BOOT) / 10;
const proc = (pid: number, startIso: string): ProcInfo => ({
  pid,
  ppid: 1,
  pgrp: pid,
  session: pid,
  start: ticks(startIso),
  state: "S",
});
const started = (stepId: string, pid: number): SpotEvent =>
  ({ type: "step_start", step: "worker", stepId, pid, at: AT, runId: "r" }) as SpotEvent;

Deno.test("openSteps() keeps an open step's process and drops ended steps and dead pids", () => {
  const events = [started("a", 100), started("b", 200), started("c", 300), {
    type: "step_end",
    step: "worker",
    stepId: "b",
    exitCode: 0,
    timedOut: false,
    durationMs: 1,
    at: AT,
    runId: "r",
  } as SpotEvent];
  const table = [proc(100, "2026-01-01T00:59:59.900Z"), proc(200, "2026-01-01T00:59:59.900Z")];
  assert.deepEqual(openSteps(events, table, BOOT), [100]);
});

Deno.test("openSteps() never returns a pid that a process started after the step now holds", () => {
  const reused = [proc(100, "2026-01-01T01:05:00.000Z")];
  assert.deepEqual(openSteps([started("a", 100)], reused, BOOT), []);
  // Without the start-time rule the reused pid would be signalled: the check is what keeps it out.
  assert.deepEqual(openSteps([started("a", 100)], reused, null), [100]);
});
