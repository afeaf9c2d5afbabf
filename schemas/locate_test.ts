import assert from "node:assert/strict";
import type { Issue } from "../errors.ts";
import { formatIssues, parseWithSchema } from "./locate.ts";
import { TaskContract } from "./task_contract.ts";

/** A valid contract; each line is known, so tests can name exact positions. */
const LINES = [
  "{", // 1
  '  "schemaVersion": 1,', // 2
  '  "goal": "Add a --json flag to the CLI",', // 3
  '  "allowedPaths": ["src/**"],', // 4
  '  "acceptanceCriteria": ["the flag works"],', // 5
  '  "verification": [', // 6
  '    { "argv": ["deno", "test"], "timeoutSeconds": 60 }', // 7
  "  ],", // 8
  '  "risk": "low"', // 9
  "}", // 10
];
const VALID = LINES.join("\n");

function withLine(lineNo: number, text: string): string {
  const lines = [...LINES];
  lines[lineNo - 1] = text;
  return lines.join("\n");
}

function issuesOf(text: string, options?: { jsonc?: boolean }): Issue[] {
  const parsed = parseWithSchema(text, TaskContract, options);
  assert.equal(parsed.ok, false, "expected the document to be refused");
  return parsed.ok ? [] : parsed.issues;
}

function find(issues: Issue[], path: string): Issue {
  const hit = issues.find((i) => i.path === path);
  assert.ok(hit, `no issue at ${path} in ${JSON.stringify(issues)}`);
  return hit;
}

Deno.test("parseWithSchema() accepts the valid fixture and returns the parsed contract with defaults", () => {
  const parsed = parseWithSchema(VALID, TaskContract);
  assert.ok(parsed.ok, JSON.stringify(parsed));
  assert.equal(parsed.value.goal, "Add a --json flag to the CLI");
  assert.deepEqual(parsed.value.verification, [{ argv: ["deno", "test"], timeoutSeconds: 60 }]);
  assert.deepEqual(parsed.value.forbiddenPaths, []);
});

Deno.test("parseWithSchema() reports an unknown key at its own line:col with its own path", () => {
  const text = withLine(9, '  "risk": "low",\n  "bogus": true');
  const issues = issuesOf(text);
  assert.equal(issues.length, 1, JSON.stringify(issues));
  const issue = find(issues, "bogus");
  assert.equal(issue.line, 10);
  assert.equal(issue.col, 3);
  assert.match(issue.message, /bogus/);
});

Deno.test("parseWithSchema() reports an unknown key inside a nested object with the nested path", () => {
  const line7 = '    { "argv": ["deno", "test"], "timeoutSeconds": 60, "shell": true }';
  const issue = find(issuesOf(withLine(7, line7)), "verification[0].shell");
  assert.equal(issue.line, 7);
  assert.equal(issue.col, line7.indexOf('"shell"') + 1);
});

Deno.test("parseWithSchema() reports a wrong type deep in verification[0].timeoutSeconds at that value's line", () => {
  const line7 = '    { "argv": ["deno", "test"], "timeoutSeconds": "60" }';
  const issues = issuesOf(withLine(7, line7));
  assert.equal(issues.length, 1, JSON.stringify(issues));
  const issue = find(issues, "verification[0].timeoutSeconds");
  assert.equal(issue.line, 7);
  assert.equal(issue.col, line7.indexOf('"timeoutSeconds"') + 1);
  assert.match(issue.message, /number/);
});

Deno.test("parseWithSchema() points an array item's problem at the item itself", () => {
  const line4 = '  "allowedPaths": ["src/**", "../etc"],';
  const issue = find(issuesOf(withLine(4, line4)), "allowedPaths[1]");
  assert.equal(issue.line, 4);
  assert.equal(issue.col, line4.indexOf('"../etc"') + 1);
});

Deno.test("parseWithSchema() points a missing key at the object that lacks it", () => {
  const issues = issuesOf(withLine(7, '    { "argv": ["deno", "test"] }'));
  const issue = find(issues, "verification[0].timeoutSeconds");
  assert.equal(issue.line, 7);
  assert.equal(issue.col, 5);
  const root = find(issuesOf(withLine(3, "")), "goal");
  assert.equal(root.line, 1);
  assert.equal(root.col, 1);
});

Deno.test("parseWithSchema() reports a syntax error at its line:col with the (syntax) path", () => {
  const issues = issuesOf(withLine(2, '  "schemaVersion": 1'));
  assert.equal(issues.length, 1, JSON.stringify(issues));
  assert.deepEqual(issues[0], { path: "(syntax)", message: "invalid JSON: CommaExpected", line: 3, col: 3 });
});

Deno.test("parseWithSchema() reports an empty document as a syntax error", () => {
  const issues = issuesOf("");
  assert.equal(issues.length, 1);
  assert.equal(issues[0].path, "(syntax)");
  assert.equal(issues[0].line, 1);
});

Deno.test("parseWithSchema() refuses comments and trailing commas in plain JSON mode", () => {
  const text = withLine(9, '  // the risk is small\n  "risk": "low",');
  const issues = issuesOf(text);
  assert.ok(issues.every((i) => i.path === "(syntax)"), JSON.stringify(issues));
  const comment = issues.find((i) => /Comment/.test(i.message));
  assert.ok(comment, JSON.stringify(issues));
  assert.equal(comment.line, 9);
  assert.equal(comment.col, 3);
});

Deno.test("parseWithSchema() accepts comments and trailing commas when jsonc is true", () => {
  const text = withLine(9, '  // the risk is small\n  /* block */ "risk": "low",');
  const parsed = parseWithSchema(text, TaskContract, { jsonc: true });
  assert.ok(parsed.ok, JSON.stringify(parsed));
  assert.equal(parsed.value.risk, "low");
});

Deno.test("parseWithSchema() with jsonc still reports schema problems at the right line", () => {
  const text = withLine(9, '  // comment\n  "risk": "extreme",');
  const parsed = parseWithSchema(text, TaskContract, { jsonc: true });
  assert.equal(parsed.ok, false);
  const issue = find(parsed.ok ? [] : parsed.issues, "risk");
  assert.equal(issue.line, 10);
  assert.equal(issue.col, 3);
});

Deno.test("formatIssues() prints file:line:col path: message, one issue per line", () => {
  const text = formatIssues("task.json", [
    { path: "verification[0].timeoutSeconds", message: "expected number", line: 7, col: 33 },
    { path: "(root)", message: "empty document" },
  ]);
  assert.equal(
    text,
    "task.json:7:33 verification[0].timeoutSeconds: expected number\ntask.json:0:0 (root): empty document",
  );
});

Deno.test("formatIssues() of parsed issues names the file and the value's position", () => {
  const issues = issuesOf(withLine(9, '  "risk": "low",\n  "bogus": true'));
  assert.equal(formatIssues("/tmp/c.json", issues), `/tmp/c.json:10:3 bogus: ${issues[0].message}`);
  assert.equal(formatIssues("x", []), "");
});

Deno.test("parseWithSchema() refuses a duplicated key and points at the repeat", () => {
  const issue = find(issuesOf(withLine(9, '  "risk": "low",\n  "risk": "extreme"')), "risk");
  assert.equal(issue.line, 10, 'the first, valid "risk" on line 9 was blamed');
  assert.match(issue.message, /duplicate key/);
});
