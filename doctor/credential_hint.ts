/** When a profile's key variable is unset: a similarly named one that is set, and a profile whose key is. */
import type { Config } from "../schemas/config.ts";
import type { EnvReader } from "../store/paths.ts";

/** Words every key variable shares; matching on them alone would suggest anything. */
const GENERIC = new Set(["API", "KEY", "TOKEN", "SECRET", "ACCESS", "PERSONAL", "AUTH"]);

function distance(a: string, b: string): number {
  const row = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    let prev = row[0];
    row[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const next = Math.min(row[j] + 1, row[j - 1] + 1, prev + (a[i - 1] === b[j - 1] ? 0 : 1));
      prev = row[j];
      row[j] = next;
    }
  }
  return row[b.length];
}

/** Set variables that look like `wanted`: a shared distinctive word, or a few edits away. */
export function similarNames(wanted: string, names: readonly string[]): string[] {
  const words = wanted.split("_").filter((w) => w.length > 2 && !GENERIC.has(w));
  return names.filter((name) => {
    if (name === wanted) return false;
    if (distance(name, wanted) <= 3) return true;
    const theirs = new Set(name.split("_"));
    return words.some((w) => theirs.has(w));
  }).sort();
}

/** The first other profile whose key variable is set (or that needs none besides replay). */
export function profileWithKey(config: Config, except: string, env: EnvReader): string | null {
  for (const [name, profile] of Object.entries(config.profiles)) {
    if (name === except || profile.adapter === "replay" || !profile.apiKeyEnv) continue;
    if (env(profile.apiKeyEnv)) return name;
  }
  return null;
}
