/**
 * Every benchmark's verdict line, `BENCH <name> ratio=<x> target=<y> <detail>`, and its exit code: a
 * script that printed a line above its target exits 1 once all its lines are out, so `deno task bench`
 * fails when a number is missed.
 */
let missed = 0;

/** Prints one line; a ratio above its target (every target here is a ceiling) counts as a miss. */
export function benchLine(name: string, ratio: number, target: number, detail = ""): void {
  const miss = !(ratio <= target);
  if (miss) missed++;
  console.log(
    `BENCH ${name} ratio=${ratio.toFixed(3)} target=${target}${detail ? ` ${detail}` : ""}${
      miss ? " MISSED" : ""
    }`,
  );
}

/** Exits 1 when any line of this script missed its target. */
export function finishBench(): void {
  if (missed > 0) Deno.exit(1);
}
