import assert from "node:assert/strict";
import { detectCaller } from "./caller.ts";

const envOf = (vars: Record<string, string>) => (name: string): string | undefined =>
  Object.hasOwn(vars, name) ? vars[name] : undefined;

Deno.test("detectCaller() returns cli when nothing names a caller", () => {
  assert.equal(detectCaller(envOf({})), "cli");
  assert.equal(detectCaller(envOf({ HOME: "/home/u", PATH: "/usr/bin" })), "cli");
});

Deno.test("detectCaller() returns each known caller named by PARENT_AGENT", () => {
  for (const name of ["trae", "codex", "claude-code", "cursor", "pi-recursive", "workbuddy", "cli"]) {
    assert.equal(detectCaller(envOf({ PARENT_AGENT: name })), name);
  }
});

Deno.test("detectCaller() trims and lower-cases the named caller", () => {
  assert.equal(detectCaller(envOf({ PARENT_AGENT: "  Codex \n" })), "codex");
  assert.equal(detectCaller(envOf({ PARENT_AGENT: "CURSOR" })), "cursor");
});

Deno.test("detectCaller() maps the aliases claude, claudecode and pi", () => {
  assert.equal(detectCaller(envOf({ PARENT_AGENT: "claude" })), "claude-code");
  assert.equal(detectCaller(envOf({ PARENT_AGENT: "ClaudeCode" })), "claude-code");
  assert.equal(detectCaller(envOf({ PARENT_AGENT: "pi" })), "pi-recursive");
});

Deno.test("detectCaller() returns unknown for an unrecognised name", () => {
  assert.equal(detectCaller(envOf({ PARENT_AGENT: "copilot" })), "unknown");
  assert.equal(detectCaller(envOf({ PARENT_AGENT: "claude code" })), "unknown");
});

Deno.test("detectCaller() reads PI_WORKER_CALLER when PARENT_AGENT is unset", () => {
  assert.equal(detectCaller(envOf({ PI_WORKER_CALLER: "trae" })), "trae");
});

Deno.test("detectCaller() prefers PARENT_AGENT over PI_WORKER_CALLER", () => {
  assert.equal(detectCaller(envOf({ PARENT_AGENT: "codex", PI_WORKER_CALLER: "trae" })), "codex");
});

Deno.test("detectCaller() prefers a named caller over the WorkBuddy markers", () => {
  assert.equal(detectCaller(envOf({ PARENT_AGENT: "codex", WORKBUDDY: "1" })), "codex");
});

Deno.test("detectCaller() returns workbuddy when WORKBUDDY or WORKBUDDY_AGENT is set non-empty", () => {
  assert.equal(detectCaller(envOf({ WORKBUDDY: "1" })), "workbuddy");
  assert.equal(detectCaller(envOf({ WORKBUDDY_AGENT: "agent-7" })), "workbuddy");
  assert.equal(detectCaller(envOf({ WORKBUDDY: "" })), "cli");
});

Deno.test("detectCaller() treats a blank PARENT_AGENT as no name", () => {
  assert.equal(detectCaller(envOf({ PARENT_AGENT: "   " })), "cli");
  assert.equal(detectCaller(envOf({ PARENT_AGENT: "", WORKBUDDY: "1" })), "workbuddy");
});

// Regression (fixed): routing/caller.ts detectCaller() uses `env("PARENT_AGENT") ?? env("PI_WORKER_CALLER")`, so an
// empty PARENT_AGENT (not nullish) hides PI_WORKER_CALLER, while an empty WORKBUDDY is treated as unset.
Deno.test({
  name: "detectCaller() falls through an empty PARENT_AGENT to PI_WORKER_CALLER",
  fn: () => {
    assert.equal(detectCaller(envOf({ PARENT_AGENT: "", PI_WORKER_CALLER: "codex" })), "codex");
  },
});

// Regression (fixed): routing/caller.ts detectCaller() looks the name up with `ALIASES[named]` on a plain object
// literal, so PARENT_AGENT=constructor returns Object.prototype.constructor (the Object function)
// instead of "unknown"; the run's state then carries a function as its caller, which
// JSON.stringify silently drops from state.json.
Deno.test({
  name: "detectCaller() returns unknown for a name that is an Object.prototype key",
  fn: () => {
    assert.equal(detectCaller(envOf({ PARENT_AGENT: "constructor" })), "unknown");
  },
});
