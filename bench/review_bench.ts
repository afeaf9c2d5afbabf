/**
 * What a parent reads at tier A, against what it would read without spot. Each case is a medium change
 * (several files, several hunks a file, a few hundred changed lines) made by the replay worker through
 * the real CLI; its self-review is the episode's self-review turn, written the way a diligent worker
 * writes one: one criterion per concern, and every hunk cited, with a note, by the criterion it serves.
 *
 * Parent bytes = verify's JSON output + everything `spot diff --hunks` prints: the self-review's digest
 * (each criterion's status and how much it cites) and the hunks to read (their text is the guide's
 * readBytes, checked against what it printed). That is all a parent reads at tier A; self-review.json and
 * the guide's list of covered hunks stay on disk for a parent that wants more. Prints two lines:
 *   BENCH tier_a_parent_bytes_vs_diff ratio=<parent / diff> target=0.2
 *   BENCH tier_a_parent_bytes_vs_diff_and_files ratio=<parent / (diff + changed files)> target=0.1
 * and exits 1 when either target is missed. Each line ends with where the parent's bytes went (verify,
 * the diff output and the hunk text inside it), so a miss says what would have to shrink.
 */
import { join } from "node:path";
import { makeRepo, spot, type SpotEnv, spotEnv, writeEpisode, writeJson } from "../tests/helpers.ts";
import { guideFromSelfReview } from "../review/tiers.ts";
import type { SelfReview } from "../schemas/self_review.ts";
import { splitHunks } from "../verify/hunks.ts";
import { benchLine, finishBench } from "./bench_line.ts";
import { block, CONCERNS } from "./review_concerns.ts";

const TARGET_DIFF = 0.2;
const TARGET_DIFF_AND_FILES = 0.1;
const encoder = new TextEncoder();
const bytes = (text: string) => encoder.encode(text).length;

const FUNCTIONS = 36;
const HEADER = [
  'import type { Discount, Item } from "./types.ts";',
  'import { audit, roundCents } from "./util.ts";',
  "",
];

interface Case {
  files: number;
  hunksPerFile: number;
}

/** Builds the repo, the episode and the contract of one case; the worker's self-review cites every hunk. */
async function build(dir: string, c: Case, salt: number) {
  const base: Record<string, string> = {};
  const edited: Record<string, string> = {};
  const evidence = CONCERNS.map(() => [] as { file: string; line: number; note: string }[]);
  for (let f = 0; f < c.files; f++) {
    const path = `src/orders${f}.ts`;
    const before = [...HEADER];
    const after = [...HEADER];
    const step = Math.floor(FUNCTIONS / c.hunksPerFile);
    for (let i = 0; i < FUNCTIONS; i++) {
      const n = f * 100 + i;
      before.push(...block(n));
      const slot = i % step === 1 ? Math.floor(i / step) : -1;
      if (slot < 0 || slot >= c.hunksPerFile) {
        after.push(...block(n));
        continue;
      }
      const which = (f * c.hunksPerFile + slot + salt) % CONCERNS.length;
      const { lines, first } = CONCERNS[which].edit(n);
      evidence[which].push({ file: path, line: after.length + first + 1, note: CONCERNS[which].note(n) });
      after.push(...lines);
    }
    base[path] = before.join("\n");
    edited[path] = after.join("\n");
  }
  const repo = await makeRepo(base, dir);
  const used = CONCERNS.map((k, i) => ({ ...k, evidence: evidence[i] })).filter((k) => k.evidence.length > 0);
  const report = {
    schemaVersion: 1,
    runId: "{{runId}}",
    diffSha256: "{{diffSha256}}",
    acceptanceEvidence: used.map((k) => ({ criterion: k.criterion, status: "met", evidence: k.evidence })),
    findings: [],
    uncertainCriteria: [],
    summary: "Each concern is done in every order function the task named; the checks pass.",
  };
  const episodeFile = join(dir, "episode.jsonl");
  await writeEpisode(episodeFile, [
    ...Object.entries(edited).map(([path, content]) => ({ op: "write", path, content })),
    { op: "say", text: "Done: guards, rate checks, rounding, audit, discounts and cents, as asked." },
    { op: "say", phase: "self-review", text: "```json\n" + JSON.stringify(report, null, 2) + "\n```" },
  ]);
  const taskFile = join(dir, "task.json");
  await writeJson(taskFile, {
    schemaVersion: 1,
    goal: "Harden the order totals",
    allowedPaths: ["src/**"],
    acceptanceCriteria: used.map((k) => k.criterion),
    verification: [{ argv: ["true"], timeoutSeconds: 30 }],
    risk: "low",
  });
  // The changed files as the worker left them: what a parent would open without spot.
  const changedBytes = Object.values(edited).reduce((n, text) => n + bytes(text), 0);
  return { repo, taskFile, episodeFile, changedBytes };
}

async function cli(env: SpotEnv, repo: string, ...args: string[]) {
  const r = await spot(env, repo, ...args);
  if (r.code !== 0) throw new Error(`spot ${args.join(" ")} failed (${r.code}): ${r.stderr}`);
  return r;
}

interface Measured {
  verify: number;
  /** All of `spot diff --hunks`'s output: digest, hunks to read, covered list. */
  diffOutput: number;
  /** The hunk text inside it. */
  hunks: number;
  /** self-review.json, which the parent no longer needs to open. */
  selfReview: number;
  diff: number;
  files: number;
  changedLines: number;
  /** Hunks shown whatever the self-review says (process control, dynamic code, network, outside writes). */
  alwaysShown: number;
  /** The hunk text read at tier A averaged over many seeds of the draw: the one CLI run is a single sample. */
  meanHunks: number;
}

/** Seeds the spot check is replayed with on each case's own self-review and diff. */
const REPLAY_SEEDS = 200;

const parent = (m: Measured) => m.verify + m.diffOutput;

async function measure(env: SpotEnv, c: Case, salt: number): Promise<Measured> {
  const dir = await Deno.makeTempDir({ dir: env.dir });
  const { repo, taskFile, episodeFile, changedBytes } = await build(dir, c, salt);
  const prep = await cli(
    env,
    repo,
    "prepare",
    "--task",
    taskFile,
    "--profile",
    "replay",
    "--model",
    episodeFile,
  );
  const id = String(prep.json.runId);
  await cli(env, repo, "run", "--id", id);
  const verify = await cli(env, repo, "verify", "--id", id);
  const self = await cli(env, repo, "self-review", "--id", id);
  if (self.json.reviewTier !== "A") throw new Error(`expected tier A, got ${JSON.stringify(self.json)}`);
  const hunks = await cli(env, repo, "diff", "--id", id, "--hunks");
  const runDir = join(env.stateDir, "runs", id);
  const guide = JSON.parse(await Deno.readTextFile(join(runDir, "review-guide.json")));
  const printed = hunks.json.hunks as { text: string; reason: string }[];
  if (printed.reduce((n, h) => n + bytes(h.text), 0) !== guide.readBytes) {
    throw new Error("the guide's readBytes is not the hunk text spot diff --hunks printed");
  }
  // The worker here cites every hunk; a hunk read for lack of a citation would mean the case is miswritten.
  if (printed.some((h) => h.reason === "no evidence cites this hunk")) throw new Error("an uncited hunk");
  const selfReview = await Deno.readTextFile(join(runDir, "self-review.json"));
  const diff = await Deno.readTextFile(join(runDir, "diff.patch"));
  const report: SelfReview & { spotCheckRequired: number } = JSON.parse(selfReview);
  const signals = {
    diffSha256Mismatch: false,
    fallbackRecommended: false,
    spotCheckRequired: report.spotCheckRequired,
  };
  let replayed = 0;
  for (let i = 0; i < REPLAY_SEEDS; i++) {
    replayed += guideFromSelfReview(report, signals, splitHunks(diff), `bench-${i}`).readBytes;
  }
  return {
    verify: bytes(verify.stdout),
    diffOutput: bytes(hunks.stdout),
    hunks: guide.readBytes,
    selfReview: bytes(selfReview),
    diff: bytes(diff),
    files: changedBytes,
    changedLines: diff.split("\n").filter((l) => /^[+-](?![+-]{2} )/.test(l)).length,
    alwaysShown: guide.alwaysShown,
    meanHunks: Math.round(replayed / REPLAY_SEEDS),
  };
}

const CASES: Case[] = [
  { files: 5, hunksPerFile: 6 },
  { files: 6, hunksPerFile: 6 },
  { files: 8, hunksPerFile: 5 },
];
const env = await spotEnv();
const results: Measured[] = [];
for (const [i, c] of CASES.entries()) results.push(await measure(env, c, i));
await Deno.remove(env.dir, { recursive: true });

const sum = (pick: (m: Measured) => number) => results.reduce((n, m) => n + pick(m), 0);
const lines = [
  { name: "tier_a_parent_bytes_vs_diff", ratio: sum(parent) / sum((m) => m.diff), target: TARGET_DIFF },
  {
    name: "tier_a_parent_bytes_vs_diff_and_files",
    ratio: sum(parent) / sum((m) => m.diff + m.files),
    target: TARGET_DIFF_AND_FILES,
  },
];
// Where the parent's bytes go, so a missed target says what would have to shrink.
const detail = `verify+diff_output=${sum((m) => m.verify)}+${sum((m) => m.diffOutput)}` +
  ` hunk_text=${sum((m) => m.hunks)} self_review_json=${sum((m) => m.selfReview)} diff=${
    sum((m) => m.diff)
  } files=${sum((m) => m.files)} changed_lines=${results.map((m) => m.changedLines)}` +
  ` always_shown=${sum((m) => m.alwaysShown)} mean_hunk_text_${REPLAY_SEEDS}_seeds=${
    sum((m) => m.meanHunks)
  }`;
for (const l of lines) benchLine(l.name, l.ratio, l.target, { detail: `${detail} deterministic=bytes` });
finishBench();
