import assert from "node:assert/strict";
import { findCycle, type GraphIssue, overlaps, ownedCheckFiles, owns, validateGraph } from "./validate.ts";

type T = Parameters<typeof validateGraph>[0][number];
const scout = (id: string, after: string[] = []): T => ({ id, role: "scout", after });
const builder = (id: string, ownership: string[], after: string[] = []): T => ({
  id,
  role: "builder",
  after,
  ownership,
});
const reviewer = (id: string, of: string, after = [of]): T => ({ id, role: "reviewer", after, reviewOf: of });

const codes = (issues: GraphIssue[]) => issues.map((i) => `${i.code} ${i.path.join(".")}`);

Deno.test("owns and overlaps: exact files and directory prefixes, never a shared name prefix", () => {
  const cases: [string, string, boolean][] = [
    ["src", "src/a.ts", true],
    ["src/", "src/a.ts", true],
    ["src/a.ts", "src/a.ts", true],
    ["src", "srcx/a.ts", false],
    ["src/a.ts", "src/a.tsx", false],
    ["docs", "src/docs/a.md", false],
  ];
  for (const [entry, path, want] of cases) assert.equal(owns(entry, path), want, `${entry} owns ${path}`);
  assert.ok(overlaps("src", "src/lib"));
  assert.ok(overlaps("src/lib/", "src"));
  assert.ok(!overlaps("src/a", "src/b"));
});

Deno.test("validateGraph: each refusal with its code and the path of the offending value", () => {
  const table: { name: string; tasks: T[]; want: string[] }[] = [
    {
      name: "scout, two disjoint builders, reviewers: accepted",
      tasks: [
        scout("scout"),
        builder("api", ["src/api"], ["scout"]),
        builder("ui", ["src/ui", "README.md"], ["scout"]),
        reviewer("rev-api", "api"),
        reviewer("rev-ui", "ui", ["ui", "api"]),
      ],
      want: [],
    },
    {
      name: "overlapping builders that may run at once",
      tasks: [builder("a", ["src"]), builder("b", ["docs", "src/lib/x.ts"])],
      want: ["OWNERSHIP_OVERLAP tasks.1.ownership.1"],
    },
    {
      name: "the same overlap, ordered by after: accepted",
      tasks: [builder("a", ["src"]), builder("b", ["docs", "src/lib/x.ts"], ["a"])],
      want: [],
    },
    {
      name: "ordered through a third task: accepted",
      tasks: [builder("a", ["src"]), scout("s", ["a"]), builder("b", ["src"], ["s"])],
      want: [],
    },
    {
      name: "a cycle",
      tasks: [scout("a", ["c"]), scout("b", ["a"]), scout("c", ["b"])],
      want: ["JOB_CYCLE tasks.0.after"],
    },
    {
      name: "waiting for itself",
      tasks: [scout("a", ["a"])],
      want: ["JOB_INVALID tasks.0.after.0", "JOB_CYCLE tasks.0.after"],
    },
    {
      name: "an unknown after id",
      tasks: [scout("a"), scout("b", ["a", "zz"])],
      want: ["JOB_INVALID tasks.1.after.1"],
    },
    { name: "a repeated id", tasks: [scout("a"), scout("a")], want: ["JOB_INVALID tasks.1.id"] },
    {
      name: "a reviewer of a scout",
      tasks: [scout("a"), reviewer("r", "a")],
      want: ["JOB_INVALID tasks.1.reviewOf"],
    },
  ];
  for (const { name, tasks, want } of table) assert.deepEqual(codes(validateGraph(tasks)), want, name);
});

Deno.test("findCycle names the loop in order", () => {
  assert.deepEqual(findCycle([scout("a", ["b"]), scout("b", ["a"])]), ["a", "b", "a"]);
  assert.equal(findCycle([scout("a"), scout("b", ["a"])]), null);
});

Deno.test("ownedCheckFiles: a builder's check that runs a repository file it owns, and nothing else", () => {
  const tree = new Set(["api/check.sh", "scripts/check.sh", "api/x.ts"]);
  const builder = (argv: string[], ownership = ["api"]) => ({
    id: "b",
    role: "builder" as const,
    after: [],
    ownership,
    checks: [{ id: "c", argv, timeoutMs: 1000 }],
  });
  assert.deepEqual(ownedCheckFiles([builder(["sh", "./api/check.sh"])], tree).map((i) => i.path), [
    ["tasks", 0, "checks", 0, "argv", 1],
  ]);
  // The message names the check, the file, the task that owns it, and what to do; a grep is read, not run.
  const [grep] = ownedCheckFiles([builder(["grep", "-q", "x", "api/x.ts"])], tree);
  assert.match(
    grep.message,
    /^check "c" of builder "b" \(grep -q x api\/x\.ts\) names "api\/x\.ts", a file builder "b" owns/,
  );
  assert.doesNotMatch(grep.message, /\bruns\b/);
  assert.match(grep.message, /grep the directory instead \(grep -r \.\.\. api\)/);
  assert.match(grep.message, /or move "api\/x\.ts" out of "b"'s ownership$/);
  const [script] = ownedCheckFiles([builder(["sh", "./api/check.sh"])], tree);
  assert.match(script.message, /names "api\/check\.sh".*a command that names no file the builder edits/);
  assert.equal(ownedCheckFiles([builder(["sh", "scripts/check.sh"])], tree).length, 0, "not owned");
  assert.equal(ownedCheckFiles([builder(["sh", "api/new.sh"])], tree).length, 0, "not in the repository");
  assert.equal(ownedCheckFiles([builder(["grep", "-rq", "x", "api"])], tree).length, 0, "a directory");
  assert.equal(
    ownedCheckFiles([{ ...builder(["sh", "api/check.sh"]), role: "scout" as const }], tree).length,
    0,
  );
});
