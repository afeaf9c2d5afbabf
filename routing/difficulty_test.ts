import assert from "node:assert/strict";
import { bandOf, decideDifficulty, inferDomain, type RoutableTask } from "./difficulty.ts";

const TASK: RoutableTask = {
  goal: "Tidy a function",
  risk: "low",
  acceptanceCriteria: ["works"],
  verification: [{ argv: ["true"], timeoutSeconds: 1 }],
  constraints: [],
};

Deno.test("bandOf() maps scores below 2 to low, 2-4 to medium and 5 up to high", () => {
  assert.deepEqual([0, 1, 2, 4, 5, 9].map(bandOf), ["low", "low", "medium", "medium", "high", "high"]);
});

Deno.test("inferDomain() prefers the contract's domain over words in the goal", () => {
  assert.deepEqual(inferDomain({ goal: "Fix the React component", domain: "docs" }), {
    domain: "docs",
    domainSource: "explicit",
  });
  assert.deepEqual(inferDomain({ goal: "Fix the React component" }), {
    domain: "frontend",
    domainSource: "goal",
  });
  assert.deepEqual(inferDomain({ goal: "Make it nicer" }), { domain: null, domainSource: "none" });
});

Deno.test("decideDifficulty() lists every signal and caps size at +2", () => {
  const d = decideDifficulty({
    ...TASK,
    goal: "Speed up the sorting algorithm",
    acceptanceCriteria: Array.from({ length: 8 }, (_, i) => `c${i}`),
    verification: Array.from({ length: 3 }, () => ({ argv: ["true"], timeoutSeconds: 1 })),
  });
  assert.equal(d.domain, "algorithm");
  assert.equal(d.score, 3, d.signals.join(" "));
  assert.deepEqual(d.signals, [
    "domain:algorithm+1",
    "acceptance>=8+2",
    "verification>=3+1",
    "size capped at +2",
  ]);
  assert.equal(d.difficulty, "medium");
});

Deno.test("decideDifficulty() keeps the inferred score beside a declared difficulty", () => {
  const d = decideDifficulty({ ...TASK, risk: "medium", domain: "backend", difficulty: "low" });
  assert.equal(d.difficulty, "low");
  assert.equal(d.difficultySource, "explicit");
  assert.equal(d.score, 2);
});
