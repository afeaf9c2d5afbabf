import assert from "node:assert/strict";
import { Job } from "./job.ts";
import { JobTask, ownershipProblem, webHostProblem } from "./task.ts";

const base = { id: "b", role: "builder", task: "Do it", acceptance: ["done"] };

Deno.test("ownership entries: plain relative prefixes only", () => {
  const table: [string, string | null][] = [
    ["src", null],
    ["src/lib/", null],
    ["src/a.ts", null],
    ["/etc", "must be relative to the repository root"],
    ["src/*.ts", "must be a file or directory prefix, not a glob"],
    ["src/{a,b}", "must be a file or directory prefix, not a glob"],
    ["src/../x", 'must not have a "." or ".." segment'],
    ["./src", 'must not have a "." or ".." segment'],
    [".git/hooks", 'must not reach into ".git"'],
    ["a/.git", 'must not reach into ".git"'],
    ["a//b", "must not have an empty segment"],
    ["a\\b", 'must use "/" separators'],
  ];
  for (const [entry, want] of table) assert.equal(ownershipProblem(entry), want, entry);
});

Deno.test("task rules that need only the task: by role", () => {
  const table: [string, Record<string, unknown>, string[]][] = [
    [
      "a builder with ownership and checks",
      { ownership: ["src"], checks: [{ id: "t", argv: ["true"] }] },
      [],
    ],
    ["a builder without ownership", { noChecksReason: "docs only" }, ["ownership"]],
    ["a builder without checks or a reason", { ownership: ["src"] }, ["checks"]],
    ["a scout that owns paths", { role: "scout", ownership: ["src"] }, ["ownership"]],
    ["a scout with checks", { role: "scout", checks: [{ id: "t", argv: ["true"] }] }, ["checks"]],
    ["a reviewOf not in after", { role: "reviewer", reviewOf: "b", after: [] }, ["reviewOf"]],
    ["a builder with reviewOf", { ownership: ["s"], noChecksReason: "x", reviewOf: "a", after: ["a"] }, [
      "reviewOf",
    ]],
    ["an unknown key", { role: "scout", owner: "me" }, [""]],
    ["a bad id", { role: "scout", id: "Build_1" }, ["id"]],
  ];
  for (const [name, extra, want] of table) {
    const r = JobTask.safeParse({ ...base, ...extra });
    assert.deepEqual(r.success ? [] : r.error.issues.map((i) => i.path.join(".")), want, name);
  }
});

Deno.test("a job that writes needs integrated checks or a reason, and builders need allowWrites", () => {
  const builder = { ...base, ownership: ["src"], noChecksReason: "x" };
  const paths = (v: unknown) => {
    const r = Job.safeParse(v);
    return r.success ? [] : r.error.issues.map((i) => i.path.join("."));
  };
  assert.deepEqual(paths({ approval: "ok", tasks: [builder] }), ["tasks.0.role"]);
  assert.deepEqual(paths({ approval: "ok", allowWrites: true, tasks: [builder] }), ["integratedChecks"]);
  assert.deepEqual(
    paths({ approval: "ok", allowWrites: true, noIntegratedChecksReason: "x", tasks: [builder] }),
    [],
  );
  assert.deepEqual(paths({ approval: "ok", config: { limits: { concurrency: 17 } } }), [
    "config.limits.concurrency",
  ]);
  assert.equal(Job.parse({ approval: "ok" }).config.limits.concurrency, 3);
});

Deno.test("web hosts: host:port or *.domain:port, nothing wider", () => {
  const table: [string, string | null][] = [
    ["docs.deno.com:443", null],
    ["127.0.0.1:8080", null],
    ["*.wikipedia.org:443", null],
    ["*:443", 'expected host:port or *.domain:port (no scheme, path or bare "*")'],
    ["*", 'expected host:port or *.domain:port (no scheme, path or bare "*")'],
    ["*.com:443", "a wildcard needs a domain with a dot under it"],
    ["docs.*.com:443", 'expected host:port or *.domain:port (no scheme, path or bare "*")'],
    ["https://docs.deno.com:443", 'expected host:port or *.domain:port (no scheme, path or bare "*")'],
    ["docs.deno.com", 'expected host:port or *.domain:port (no scheme, path or bare "*")'],
    ["docs.deno.com:443/x", 'expected host:port or *.domain:port (no scheme, path or bare "*")'],
    ["docs.deno.com:0", "the port must be 1-65535"],
    ["docs.deno.com:70000", "the port must be 1-65535"],
  ];
  for (const [entry, want] of table) assert.equal(webHostProblem(entry), want, entry);
});

Deno.test("webHosts belong to research tasks only; the job's list is checked the same way", () => {
  const paths = (extra: Record<string, unknown>) => {
    const r = JobTask.safeParse({ ...base, role: "research", ...extra });
    return r.success ? [] : r.error.issues.map((i) => i.path.join("."));
  };
  assert.deepEqual(paths({ webHosts: ["docs.deno.com:443"] }), []);
  assert.deepEqual(paths({ webHosts: [] }), [], "an empty list: web tools, every fetch refused");
  assert.deepEqual(paths({ role: "scout", webHosts: ["docs.deno.com:443"] }), ["webHosts"]);
  assert.deepEqual(paths({ role: "builder", ownership: ["s"], noChecksReason: "x", webHosts: [] }), [
    "webHosts",
  ]);
  assert.deepEqual(paths({ webHosts: ["x.org:443", "x.org:443"] }), ["webHosts"]);
  const job = Job.safeParse({ approval: "ok", webHosts: ["*:443"] });
  assert.deepEqual(job.success ? [] : job.error.issues.map((i) => i.path.join(".")), ["webHosts.0"]);
  assert.deepEqual(Job.parse({ approval: "ok" }).webHosts, []);
});
