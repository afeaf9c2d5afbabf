/**
 * Every benchmark's verdict line and its exit code. The line starts `BENCH <name> ratio=<x> target=<y>`
 * (CI and people parse that prefix); the fields after it say how far to trust it:
 *
 * - `ratio=`: the median of the rounds' ratios when the two sides were measured in interleaved rounds
 *   (so the machine's drift cancels; `ratio_of_medians=` beside it), else the ratio of the sides' medians;
 * - `ratio_spread=<lo>..<hi>`: the interquartile range of the ratio, taken pair by pair when the two
 *   sides were measured in interleaved rounds, else from the sides' quartiles;
 * - `<side>_ms=<median> <side>_spread_ms=<min>..<max>` for each side;
 * - `excess_ms=<a - b> excess_target_ms=<t>` for a ratio over a denominator of a few milliseconds, where
 *   one millisecond of noise moves the ratio by a tenth: the line is also met when the absolute excess is
 *   within its own target;
 * - `verdict=met|within_spread|missed`: `within_spread` is a median above its target whose spread still
 *   reaches it (the lower quartile meets the target), which says "measure again on a quieter machine",
 *   not "slower". Only `missed` (also printed as a trailing ` MISSED`) makes the script exit 1.
 */
let missed = 0;

/** The median of a sample (the upper middle for an even count, as every bench here has quoted). */
export function median(xs: number[]): number {
  return [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
}

/** The q-quantile (0..1) of a sample, interpolated between its order statistics. */
export function quantile(xs: number[], q: number): number {
  const s = [...xs].sort((a, b) => a - b);
  const at = (s.length - 1) * q;
  const lo = Math.floor(at);
  return s[lo] + (s[Math.min(lo + 1, s.length - 1)] - s[lo]) * (at - lo);
}

const fixed = (x: number) => x.toFixed(x >= 100 ? 0 : 1);
/** `min..max` of a sample, in its unit's precision. */
export function range(xs: number[]): string {
  return `${fixed(Math.min(...xs))}..${fixed(Math.max(...xs))}`;
}

/** A verdict: at or below the target, or above it with its lower bound of the spread at or below it. */
function judge(value: number, target: number, low: number | undefined): Verdict {
  if (value <= target) return "met";
  return low !== undefined && low <= target ? "within_spread" : "missed";
}

export interface LineOptions {
  /** The spread of the value itself, `[lower quartile, upper quartile]`: decides `within_spread`. */
  spread?: [number, number];
  detail?: string;
}

/**
 * Prints one line for a single value against its ceiling (every target here is a ceiling). Without a
 * spread, any value above the target is a miss.
 */
export function benchLine(name: string, ratio: number, target: number, options: LineOptions = {}): void {
  const verdict = judge(ratio, target, options.spread?.[0]);
  if (verdict === "missed") missed++;
  console.log(format(name, ratio, target, [
    options.spread ? `ratio_spread=${options.spread[0].toFixed(3)}..${options.spread[1].toFixed(3)}` : "",
    options.detail ?? "",
    `verdict=${verdict}`,
  ], verdict));
}

export interface RatioOptions {
  target: number;
  /** The two sides' names in the line: `<name>_ms`, `<name>_spread_ms`. */
  names: [string, string];
  /** The sides were measured in interleaved rounds, round i of one beside round i of the other. */
  paired?: boolean;
  /** A ceiling on the absolute excess (a - b, ms) for a ratio over a denominator of a few ms. */
  excessTargetMs?: number;
  detail?: string;
}

/** Prints the line for two samples of wall times (ms): their ratio, judged with its spread. */
export function benchRatio(name: string, a: number[], b: number[], options: RatioOptions): void {
  const { text, verdict } = ratioLine(name, a, b, options);
  if (verdict === "missed") missed++;
  console.log(text);
}

export type Verdict = "met" | "within_spread" | "missed";

/** The line `benchRatio` prints and its verdict. */
export function ratioLine(
  name: string,
  a: number[],
  b: number[],
  options: RatioOptions,
): { text: string; verdict: Verdict } {
  const pairs = options.paired && a.length === b.length ? a.map((x, i) => x / b[i]) : undefined;
  // Measured side by side, each round's ratio cancels what the machine did in that round: the median of
  // those is the ratio (the one its spread is of); the ratio of the sides' medians is printed beside it.
  const ratio = pairs ? median(pairs) : median(a) / median(b);
  const spread: [number, number] = pairs
    ? [quantile(pairs, 0.25), quantile(pairs, 0.75)]
    : [quantile(a, 0.25) / quantile(b, 0.75), quantile(a, 0.75) / quantile(b, 0.25)];
  const [na, nb] = options.names;
  const fields = [
    `ratio_spread=${spread[0].toFixed(3)}..${spread[1].toFixed(3)}`,
    pairs ? `ratio_of_medians=${(median(a) / median(b)).toFixed(3)}` : "",
    `${na}_ms=${fixed(median(a))} ${na}_spread_ms=${range(a)}`,
    `${nb}_ms=${fixed(median(b))} ${nb}_spread_ms=${range(b)}`,
  ];
  let verdict = judge(ratio, options.target, spread[0]);
  if (options.excessTargetMs !== undefined) {
    const diffs = pairs ? a.map((x, i) => x - b[i]) : [median(a) - median(b)];
    const excess = median(a) - median(b);
    fields.push(
      `excess_ms=${fixed(excess)} excess_spread_ms=${fixed(quantile(diffs, 0.25))}..${
        fixed(quantile(diffs, 0.75))
      } excess_target_ms=${options.excessTargetMs}`,
    );
    const byMs = judge(excess, options.excessTargetMs, quantile(diffs, 0.25));
    const rank = { met: 0, within_spread: 1, missed: 2 };
    if (rank[byMs] < rank[verdict]) verdict = byMs;
  }
  fields.push(`rounds=${a.length}`);
  if (options.detail) fields.push(options.detail);
  fields.push(`verdict=${verdict}`);
  return { text: format(name, ratio, options.target, fields, verdict), verdict };
}

function format(name: string, ratio: number, target: number, fields: string[], verdict: Verdict): string {
  const rest = fields.filter((f) => f !== "").join(" ");
  return `BENCH ${name} ratio=${ratio.toFixed(3)} target=${target}${rest ? ` ${rest}` : ""}${
    verdict === "missed" ? " MISSED" : ""
  }`;
}

/** Exits 1 when any line of this script missed its target beyond its spread. */
export function finishBench(): void {
  if (missed > 0) Deno.exit(1);
}
