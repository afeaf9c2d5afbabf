/** Loose semver comparison: numeric parts compared in order, anything after them ignored. */

function parts(version: string): number[] | null {
  const match = version.trim().replace(/^v/i, "").match(/^\d+(\.\d+)*/);
  return match ? match[0].split(".").map(Number) : null;
}

/** -1, 0 or 1; null when either side has no leading number. */
export function compareVersions(a: string, b: string): number | null {
  const x = parts(a);
  const y = parts(b);
  if (!x || !y) return null;
  for (let i = 0; i < Math.max(x.length, y.length); i++) {
    const d = (x[i] ?? 0) - (y[i] ?? 0);
    if (d !== 0) return Math.sign(d);
  }
  return 0;
}

/** The first `1.2.3`-like token in a CLI's version output. */
export function firstVersion(text: string): string | null {
  return text.match(/\bv?(\d+\.\d+(?:\.\d+)?(?:[-+][\w.]+)?)/)?.[1] ?? null;
}
