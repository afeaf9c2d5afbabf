import { deepStrictEqual, equal, ok, throws } from "node:assert/strict";
import { applyTemplate, EpisodeError, parseEpisode, stepsForPhase, templateVars } from "./episode.ts";

const SHA = "ab".repeat(32);

function errorAt(text: string, line: number, pattern: RegExp): void {
  throws(() => parseEpisode(text), (error: unknown) => {
    ok(error instanceof EpisodeError, `expected EpisodeError, got ${error}`);
    equal(error.line, line);
    ok(pattern.test(error.message), `message ${JSON.stringify(error.message)} does not match ${pattern}`);
    return true;
  });
}

Deno.test("parseEpisode reads every op with its fields and defaults", () => {
  const text = [
    `{"op":"write","path":"src/a.ts","content":"x"}`,
    `{"op":"delete","path":"old.txt"}`,
    `{"op":"say","text":"hello"}`,
    `{"op":"usage","input":10,"costUsd":0.5}`,
    `{"op":"sleep","ms":5}`,
    `{"op":"exec","argv":["echo","hi"]}`,
    `{"op":"fail","message":"boom"}`,
    `{"op":"exit","code":3}`,
  ].join("\n");
  deepStrictEqual(parseEpisode(text), [
    { op: "write", phase: "run", line: 1, path: "src/a.ts", content: "x" },
    { op: "delete", phase: "run", line: 2, path: "old.txt" },
    { op: "say", phase: "run", line: 3, text: "hello" },
    { op: "usage", phase: "run", line: 4, input: 10, output: 0, cacheRead: 0, cacheWrite: 0, costUsd: 0.5 },
    { op: "sleep", phase: "run", line: 5, ms: 5 },
    { op: "exec", phase: "run", line: 6, argv: ["echo", "hi"] },
    { op: "fail", phase: "run", line: 7, message: "boom" },
    { op: "exit", phase: "run", line: 8, code: 3 },
  ]);
});

Deno.test("parseEpisode skips blank lines but keeps true line numbers", () => {
  const steps = parseEpisode(`\n  \n{"op":"say","text":"a"}\n\n{"op":"say","text":"b"}\n`);
  deepStrictEqual(steps.map((s) => s.line), [3, 5]);
});

Deno.test("stepsForPhase keeps only the requested phase, run by default", () => {
  const steps = parseEpisode([
    `{"op":"say","text":"r"}`,
    `{"op":"say","text":"v","phase":"revise"}`,
    `{"op":"say","text":"s","phase":"self-review"}`,
    `{"op":"say","text":"r2","phase":"run"}`,
  ].join("\n"));
  deepStrictEqual(stepsForPhase(steps, "run").map((s) => s.line), [1, 4]);
  deepStrictEqual(stepsForPhase(steps, "revise").map((s) => s.line), [2]);
  deepStrictEqual(stepsForPhase(steps, "self-review").map((s) => s.line), [3]);
});

Deno.test("parseEpisode rejects an unknown op with its line number", () => {
  errorAt(`{"op":"say","text":"a"}\n\n{"op":"dance"}`, 3, /Unknown op "dance"/);
  errorAt(`{"text":"a"}`, 1, /Unknown op null/);
});

Deno.test("parseEpisode rejects bad JSON and non-objects", () => {
  errorAt(`{"op":"say","text":"a"}\n{"op":`, 2, /Invalid JSON/);
  errorAt(`["op","say"]`, 1, /must be a JSON object/);
  errorAt(`"say"`, 1, /must be a JSON object/);
});

Deno.test("parseEpisode rejects wrong field types", () => {
  errorAt(`{"op":"write","path":"a","content":5}`, 1, /Field "content" of op "write" must be a string/);
  errorAt(`{"op":"write","path":"","content":""}`, 1, /Field "path".*non-empty string/);
  errorAt(`{"op":"say","text":null}`, 1, /Field "text" of op "say" must be a string/);
  errorAt(`{"op":"usage","input":-1}`, 1, /Field "input".*non-negative integer/);
  errorAt(`{"op":"usage","output":1.5}`, 1, /Field "output".*non-negative integer/);
  errorAt(`{"op":"usage","costUsd":"1"}`, 1, /Field "costUsd".*non-negative number/);
  errorAt(`{"op":"sleep","ms":"10"}`, 1, /Field "ms"/);
  errorAt(`{"op":"exec","argv":[]}`, 1, /non-empty array of strings/);
  errorAt(`{"op":"exec","argv":["ls",1]}`, 1, /non-empty array of strings/);
  errorAt(`{"op":"exit","code":256}`, 1, /integer from 0 to 255/);
  errorAt(`{"op":"say","text":"a","phase":"deploy"}`, 1, /Unknown phase "deploy"/);
});

Deno.test("parseEpisode rejects missing and unknown fields", () => {
  errorAt(`{"op":"exit"}`, 1, /Field "code" of op "exit" is missing/);
  errorAt(`{"op":"fail"}`, 1, /Field "message" of op "fail" is missing/);
  errorAt(`{"op":"say","txt":"a","text":"b"}`, 1, /Unknown field "txt" for op "say"/);
});

Deno.test("templateVars finds the diff hash and run id lines of a prompt", () => {
  const prompt = `Review this change.\n- diffSha256: ${SHA}\nrunId: run-42_x\n`;
  deepStrictEqual(templateVars(prompt), { diffSha256: SHA, runId: "run-42_x" });
  deepStrictEqual(templateVars("diffSha256: abc\n"), {});
});

Deno.test("applyTemplate fills known placeholders and leaves the rest", () => {
  const vars = { diffSha256: SHA };
  equal(
    applyTemplate("sha={{diffSha256}} run={{runId}} x={{other}}", vars),
    `sha=${SHA} run={{runId}} x={{other}}`,
  );
  equal(applyTemplate("{{runId}}/{{runId}}", { runId: "r1" }), "r1/r1");
});

Deno.test("templateVars finds a job reviewer's fingerprints, and applyTemplate echoes them by task", () => {
  const a = "a".repeat(64);
  const vars = templateVars(`fingerprint of api: ${a}\nfingerprint of ui-2: ${"b".repeat(64)}\n`);
  deepStrictEqual(vars.fingerprints, { api: a, "ui-2": "b".repeat(64) });
  deepStrictEqual(applyTemplate("{{fingerprint:api}} {{fingerprint:web}}", vars), `${a} {{fingerprint:web}}`);
});
