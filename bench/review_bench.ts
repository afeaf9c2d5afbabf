/**
 * Parent reading cost at tier A: on a corpus of medium diffs, the bytes a
 * parent reads (verify's output + self-review.json + the guide's hunks) over
 * the bytes of the full diff plus the changed files.
 * Prints `BENCH tier_a_read_ratio ratio=<x> target=0.1`.
 */
import { join } from "node:path";
import { createContext, prepare, runWorker, selfReviewRun, verifyRun } from "../mod.ts";
import { diffRun } from "../verbs/diff.ts";
import { makeRepo, writeEpisode, writeJson } from "../tests/helpers.ts";

const TARGET = 0.1;
const encoder = new TextEncoder();
const bytes = (v: unknown) => encoder.encode(typeof v === "string" ? v : JSON.stringify(v)).length;

function moduleText(n: number, lines: number, edited: Set<number>): string {
  const out = [`// module ${n}`];
  for (let i = 0; i < lines; i++) {
    out.push(
      edited.has(i)
        ? `export function f${i}(x: number): number { return x * ${i} + 1; } // fixed`
        : `export function f${i}(x: number): number { return x * ${i}; }`,
    );
  }
  return out.join("\n") + "\n";
}

async function corpusCase(dir: string, files: number, lines: number, touched: number): Promise<number> {
  const sources: Record<string, string> = {};
  for (let f = 0; f < files; f++) sources[`src/m${f}.ts`] = moduleText(f, lines, new Set());
  const repo = await makeRepo(sources, dir);
  const edits = [Math.floor(lines / 5), Math.floor(lines / 2), Math.floor((lines * 4) / 5)];
  const episode: Record<string, unknown>[] = [];
  const evidence: { criterion: string; status: string; evidence: { file: string; line: number }[] }[] = [];
  for (let f = 0; f < touched; f++) {
    episode.push({ op: "write", path: `src/m${f}.ts`, content: moduleText(f, lines, new Set(edits)) });
    evidence.push({
      criterion: `module ${f} adds one in the edited functions`,
      status: "met",
      evidence: edits.map((e) => ({ file: `src/m${f}.ts`, line: e + 2 })),
    });
  }
  const report = {
    schemaVersion: 1,
    runId: "{{runId}}",
    diffSha256: "{{diffSha256}}",
    acceptanceEvidence: evidence,
    findings: [],
    uncertainCriteria: [],
    summary: "Each edited function now adds one; nothing else changed.",
  };
  episode.push({ op: "say", phase: "self-review", text: JSON.stringify(report) });
  const episodeFile = join(dir, "episode.jsonl");
  await writeEpisode(episodeFile, episode);
  const taskFile = join(dir, "task.json");
  await writeJson(taskFile, {
    schemaVersion: 1,
    goal: "Make the edited functions add one",
    allowedPaths: ["src/**"],
    acceptanceCriteria: evidence.map((e) => e.criterion),
    verification: [{ argv: ["true"], timeoutSeconds: 30 }],
    risk: "low",
  });
  const env: Record<string, string> = {
    ...Deno.env.toObject(),
    PI_WORKER_CONFIG: join(dir, "c.json"),
    PI_WORKER_STATE_DIR: join(dir, "state"),
    PI_WORKER_CACHE_DIR: join(dir, "cache"),
  };
  const ctx = await createContext({ env: (n) => env[n], cwd: repo });
  const { runId, worktreePath } = await prepare(ctx, { taskFile, profile: "replay", model: episodeFile });
  await runWorker(ctx, runId);
  const verified = await verifyRun(ctx, runId);
  const self = await selfReviewRun(ctx, runId);
  if (self.reviewTier !== "A") {
    throw new Error(`expected tier A, got ${self.reviewTier}: ${self.reason ?? ""}`);
  }
  const hunks = await diffRun(ctx, runId, { hunks: true });
  const read = bytes(verified) + bytes(await Deno.readTextFile(self.selfReviewFile!)) +
    hunks.hunks.reduce((n, h) => n + bytes(h.text), 0);
  let full = bytes(await Deno.readTextFile(ctx.store.file(runId, "diff.patch")));
  for (let f = 0; f < touched; f++) {
    full += bytes(await Deno.readTextFile(join(worktreePath, `src/m${f}.ts`)));
  }
  return read / full;
}

const dir = await Deno.makeTempDir({ prefix: "spot-review-bench-" });
const cases: [number, number, number][] = [[12, 120, 6], [16, 150, 8], [10, 200, 5]];
const ratios: number[] = [];
for (const [i, [files, lines, touched]] of cases.entries()) {
  const sub = join(dir, `case-${i}`);
  await Deno.mkdir(sub);
  ratios.push(await corpusCase(sub, files, lines, touched));
}
const mean = ratios.reduce((a, b) => a + b, 0) / ratios.length;
console.log(
  `BENCH tier_a_read_ratio ratio=${mean.toFixed(3)} target=${TARGET} cases=${
    ratios.map((r) => r.toFixed(3)).join(",")
  }`,
);
await Deno.remove(dir, { recursive: true });
