/**
 * Where a verb's time goes, for `spot --timings <verb>` or SPOT_TIMINGS=1: the process start and module
 * loading, the context, the verb, and every child process (by program and kind), every fsync. Recording is a
 * no-op unless switched on; the table goes to stderr when the verb ends (docs/performance.md).
 */

interface Row {
  count: number;
  ms: number;
}

const rows = new Map<string, Row>();
let on = false;

/** Switches recording on for this process (the CLI does it for `--timings` or SPOT_TIMINGS=1). */
export function enableTimings(): void {
  on = true;
}

export function timingsEnabled(): boolean {
  return on;
}

/** Adds one occurrence of `label` that took `ms`. */
export function recordTiming(label: string, ms: number): void {
  if (!on) return;
  const row = rows.get(label) ?? { count: 0, ms: 0 };
  row.count++;
  row.ms += ms;
  rows.set(label, row);
}

/** Times `fn` under `label` when recording, and just runs it otherwise. */
export async function timed<T>(label: string, fn: () => Promise<T>): Promise<T> {
  if (!on) return await fn();
  const started = performance.now();
  try {
    return await fn();
  } finally {
    recordTiming(label, performance.now() - started);
  }
}

/** A child process's label: git and its subcommand, a step by its script, else the program's name. */
export function processLabel(argv: string[]): string {
  const program = argv[0]?.split("/").pop() ?? "?";
  if (program === "git") return `git ${gitSubcommand(argv.slice(1))}`;
  if (program === "prlimit") {
    const inner = argv.findIndex((a, i) => i > 0 && !a.startsWith("-"));
    return inner === -1 ? "prlimit" : processLabel(argv.slice(inner));
  }
  if (program === "bwrap") {
    const inner = argv.indexOf("--");
    return inner === -1 ? "bwrap" : `bwrap ${processLabel(argv.slice(inner + 1))}`.trimEnd();
  }
  if (program === "deno") {
    return `deno ${argv.find((a) => a.endsWith(".ts"))?.split("/").pop() ?? argv[1] ?? ""}`;
  }
  return program;
}

/** The first word after git's own options (`-C dir` and `-c key=value` take the next word). */
function gitSubcommand(args: string[]): string {
  for (let i = 0; i < args.length; i++) {
    if (args[i] === "-C" || args[i] === "-c") i++;
    else if (!args[i].startsWith("-")) return args[i];
  }
  return "?";
}

/** The table: one line per label, the largest first, with the whole wall time on top (and `note` under it). */
export function timingsTable(totalMs: number, note?: string): string {
  const lines = [...rows.entries()].sort((a, b) => b[1].ms - a[1].ms)
    .map(([label, r]) => `${r.ms.toFixed(1).padStart(9)} ms ${String(r.count).padStart(4)}x  ${label}`);
  return [`spot timings: ${totalMs.toFixed(1)} ms wall`, ...(note ? [note] : []), ...lines].join("\n") + "\n";
}
