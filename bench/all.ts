/**
 * `deno task bench`: every benchmark, one after the other (they measure wall time, so never in parallel),
 * each printing its BENCH lines. Exits 1 when any of them missed a target or failed, after all have run.
 * Arguments pick benchmarks by a part of their file name: `deno task bench small_loop mcp_loop`.
 */
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { spawnProcess } from "../sandbox/spawn.ts";

const here = dirname(fileURLToPath(import.meta.url));
const BENCHES = [
  "loop_bench.ts",
  "small_loop_bench.ts",
  "admit_bench.ts",
  "mcp_loop_bench.ts",
  "review_bench.ts",
  "dashboard_bench.ts",
  "sandbox_bench.ts",
  "setup_bench.ts",
  "agents_bench.ts",
  "graph_bench.ts",
  "fleet_bench.ts",
];
/** A bench that hangs is a failure, not a wait (graph_bench.ts takes 6-12 min, by the machine's load). */
const TIMEOUT_MS = 20 * 60_000;

const picked = Deno.args.length === 0 ? BENCHES : BENCHES.filter((b) => Deno.args.some((a) => b.includes(a)));
if (picked.length === 0) {
  console.error(`No benchmark matches ${Deno.args.join(", ")}: ${BENCHES.join(", ")}`);
  Deno.exit(2);
}

let failed = 0;
for (const name of picked) {
  const r = await spawnProcess([Deno.execPath(), "run", "--no-prompt", "--allow-all", join(here, name)], {
    env: Deno.env.toObject(),
    timeoutMs: TIMEOUT_MS,
    onStdoutLine: (line) => console.log(line),
  });
  if (r.exitCode !== 0) {
    failed++;
    console.log(
      `bench ${name} exited ${r.exitCode ?? r.signal}${r.stderr ? `: ${r.stderr.trim().slice(-500)}` : ""}`,
    );
  }
}
if (failed > 0) Deno.exit(1);
