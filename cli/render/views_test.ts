import assert from "node:assert/strict";
import { renderDoctor } from "./doctor.ts";
import { renderDiscard } from "./discard.ts";
import { renderError } from "./error.ts";
import { renderGc } from "./gc.ts";
import { renderRecover } from "./recover.ts";
import { renderSandbox } from "./sandbox.ts";
import { renderInspect } from "./inspect.ts";

const ESC = "\x1b";
const EVIL = `${ESC}]52;c;cm0gLXJmIH4=\x07${ESC}[2J`;
// deno-lint-ignore no-control-regex
const SGR = /\x1b\[\d+m/g;
const noForeignEscapes = (text: string) =>
  assert.ok(!text.replace(SGR, "").includes(ESC), JSON.stringify(text));

Deno.test("renderError() puts each line of the message on its own line, then the hint and what still works", () => {
  const text = renderError({
    code: "CONTRACT_INVALID",
    message:
      'Cannot accept task contract "t.json": 2 problem(s)\nt.json:1:20 goal: Too small\nt.json:1:35 bogus: Unrecognized key',
    details: { file: "t.json", issues: [] },
  }, { exitCode: 2 });
  assert.equal(
    text,
    [
      'spot: CONTRACT_INVALID (exit 2): Cannot accept task contract "t.json": 2 problem(s)',
      "  t.json:1:20 goal: Too small",
      "  t.json:1:35 bogus: Unrecognized key",
      "  (piped, spot prints this error as one JSON object with every detail)",
      "",
    ].join("\n"),
  );
  assert.ok(!text.includes("\\n"), "no literal \\n");
  const ended = renderError({
    code: "STATE_INVALID",
    message: 'Cannot verify run "r": it was discarded',
    details: {
      runId: "r",
      hint: "what still works on it: spot inspect --id r",
      commands: ["spot inspect --id r"],
    },
  });
  assert.match(ended, /what still works\n {4}spot inspect --id r\n$/);
  assert.ok(!ended.includes("hint"), "a hint that only lists the commands is not repeated");
  const next = renderError({
    code: "RUN_LOCKED",
    message: "busy",
    details: { nextCommand: `spot x${EVIL}` },
  });
  assert.match(next, /next {2}spot x/);
  noForeignEscapes(next);
});

Deno.test("renderDoctor() says ready or not, which worker and why, and each check with a failed one's fix", () => {
  const text = renderDoctor({
    status: "ready",
    profile: "replay",
    profileSource: "flag",
    adapter: "replay",
    provider: "replay",
    model: "fix.jsonl",
    fallbackChain: [],
    routing: { profile: "replay", difficulty: "low", difficultySource: "explicit", targetTier: "cheap" },
    dependencies: { ecosystems: [] },
    checks: [
      { name: "deno", ok: true, detail: "2.9.6" },
      { name: "credential", ok: false, detail: "KEY is not set", fix: "export KEY=…" },
      { name: "pi provider", ok: true, warn: true, detail: `no models.json${EVIL}` },
    ],
  });
  assert.match(text, /^doctor {2}ready\n/);
  assert.match(text, /worker {4}replay \(from flag\): replay CLI, replay fix\.jsonl/);
  assert.match(
    text,
    /\n {2}ok +deno +2\.9\.6\n {2}FAIL +credential +KEY is not set\n {8}fix: export KEY=…\n {2}warn +pi provider/,
  );
  noForeignEscapes(text);
});

Deno.test("renderSandbox() says which backend and why, what every step gets, what each kind adds, what is not enforced", () => {
  const common = ["fs:read-allowlist", "pid:namespace"];
  const text = renderSandbox({
    level: "os",
    backend: "bwrap",
    optedOut: false,
    bwrap: { path: "/usr/bin/bwrap", version: "0.8.0" },
    reason: '"auto" from the config: bubblewrap works here',
    enforced: common,
    notEnforced: ["seccomp: no filter"],
    steps: {
      worker: { enforced: [...common, "net:provider-forwarder-only"] },
      check: { enforced: [...common, "net:none"] },
    },
  });
  assert.match(
    text,
    /^sandbox {2}bwrap \(\/usr\/bin\/bwrap 0\.8\.0\), level os\n {2}why {2}"auto" from the config/,
  );
  assert.match(text, /Enforced for every step\n {2}fs:read-allowlist\n {2}pid:namespace\n/);
  assert.match(text, /Worker turns also\n {2}net:provider-forwarder-only\n/);
  assert.match(text, /Checks also\n {2}net:none\n/);
  assert.match(text, /Not enforced\n {2}- seccomp: no filter\n$/);
  assert.match(renderSandbox({ backend: "none", optedOut: true, level: "deno-permissions" }), /opted out/);
});

Deno.test("renderGc() calls a preview a preview, and lists what it would collect and what it keeps with why", () => {
  const preview = renderGc({
    confirm: false,
    olderThan: "7d",
    wouldCollect: [{ runId: "r1", status: "integrated", worktree: "/w/r1", branch: "b/r1" }],
    retained: [{
      runId: "r2",
      status: "reviewing",
      reason: "it is reviewing, not ended",
      nextCommand: "spot discard --id r2",
    }],
    reclaimed: [],
    alreadyClean: 0,
    nextCommand: "spot gc --older-than 7d --confirm",
  });
  assert.match(preview, /preview: nothing was removed/);
  assert.match(
    preview,
    /Would collect 1 run\n {2}RUN {2}STATUS {6}WOULD REMOVE\n {2}r1 {3}integrated {2}worktree \/w\/r1, branch b\/r1/,
  );
  assert.match(
    preview,
    /Kept 1 run\n[^\n]*\n {2}r2 {3}reviewing {2}it is reviewing, not ended: spot discard --id r2/,
  );
  assert.match(preview, /next {2}spot gc --older-than 7d --confirm\n$/);
  const done = renderGc({
    confirm: true,
    olderThan: "7d",
    collected: [{
      runId: "r1",
      status: "blocked",
      worktree: "/w/r1",
      branch: "b/r1",
      diffFile: "/s/r1/diff.patch",
    }],
    retained: [],
    reclaimed: [],
  });
  assert.match(done, /Collected 1 run\n[^\n]*REMOVED\n[^\n]*diff saved to \/s\/r1\/diff\.patch/);
  assert.doesNotMatch(done, /preview|Would/);
});

Deno.test("renderRecover() and renderDiscard() say what happened to the run and what comes next", () => {
  const recovered = renderRecover({
    runId: "r",
    status: "verifying",
    recovered: true,
    reason: "the interrupted worker left changes to verify",
    nextCommand: "spot verify --id r",
    reclaimed: [{ kind: "pristine", path: "/c/p" }],
  });
  assert.equal(
    recovered,
    "run r  verifying  recovered\n  why   the interrupted worker left changes to verify\n  removed  pristine /c/p\n  next  spot verify --id r\n",
  );
  const discarded = renderDiscard({
    runId: "r",
    status: "discarded",
    previousStatus: "reviewing",
    diffFile: "/s/r/diff.patch",
    diffBytes: 120,
    worktreeRemoved: true,
    branchRemoved: true,
    slotFreed: true,
  });
  assert.match(
    discarded,
    /^run r {2}discarded \(it was reviewing\)\n {2}diff {6}\/s\/r\/diff\.patch \(120 bytes\)\n/,
  );
  assert.match(discarded, /slot {6}freed\n$/);
});

Deno.test("renderInspect() marks a verification and self-review older than the revision under way", () => {
  const run = (status: string) =>
    renderInspect({
      origin: "spot",
      state: { runId: "r", status, revisionRound: 1, createdAt: "x", updatedAt: "x" },
      verification: { passed: true, commands: [{ argv: ["deno", "test"], passed: true }] },
      selfReview: { summary: "all criteria met" },
      workerUsage: { usage: { input: 10, output: 2, cacheRead: 0 }, costUsd: 0, attempts: 3 },
    });
  const verifying = run("verifying");
  assert.match(verifying, /verified +\(before revision 1\) /);
  assert.match(verifying, /self-review +\(before revision 1\) all criteria met/);
  assert.match(verifying, /3 worker launches/);
  assert.doesNotMatch(
    run("reviewing"),
    /before revision/,
    "at review the verification is the current diff's",
  );
});
