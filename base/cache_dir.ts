/**
 * A directory of small cache entries, each holding the exact inputs it was computed from (the validated config,
 * the sandbox probe's verdict): an entry answers only when its stored inputs equal the caller's, so its file
 * name is just a quick hash, and nothing asynchronous runs on a verb's start-up path. Written atomically, the
 * oldest dropped past a bound. A cache that cannot be read or written is a miss, never an error.
 */
import { join } from "./path.ts";

/** Entries kept per directory; older ones go when a new one is written. */
const KEEP = 16;

/** Two 32-bit FNV-1a hashes of the text, as 16 hex digits: a file name, not a proof (the inputs are). */
export function quickHash(text: string): string {
  let a = 0x811c9dc5;
  let b = 0x01000193 ^ text.length;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    a = Math.imul(a ^ c, 0x01000193);
    b = Math.imul(b ^ c, 0x5bd1e995);
  }
  return (a >>> 0).toString(16).padStart(8, "0") + (b >>> 0).toString(16).padStart(8, "0");
}

/**
 * The value stored for exactly these inputs, or null. `name` (default: a hash of the inputs) is the entry's
 * file name: a caller whose inputs are large can name it by the part that tells entries apart, since the
 * whole inputs are compared anyway (hashing them in JS costs ~4 ms a verb at 9,000 characters, cold).
 */
export function readCacheEntry<T>(dir: string, inputs: string, name = quickHash(inputs)): T | null {
  try {
    const entry = JSON.parse(Deno.readTextFileSync(join(dir, `${name}.json`)));
    return entry?.inputs === inputs && entry.value !== undefined ? entry.value as T : null;
  } catch {
    return null;
  }
}

/** Stores `value` for `inputs` (temp file, then rename) and drops the oldest entries past the bound. */
export async function writeCacheEntry(
  dir: string,
  inputs: string,
  value: unknown,
  name = quickHash(inputs),
): Promise<void> {
  try {
    await Deno.mkdir(dir, { recursive: true, mode: 0o700 });
    const tmp = join(dir, `.${crypto.randomUUID()}.tmp`);
    await Deno.writeTextFile(tmp, JSON.stringify({ inputs, value }), { mode: 0o600 });
    await Deno.rename(tmp, join(dir, `${name}.json`));
    await prune(dir);
  } catch {
    // Read-only or missing cache dir: the next call computes again.
  }
}

async function prune(dir: string): Promise<void> {
  const entries: { path: string; mtime: number }[] = [];
  for await (const e of Deno.readDir(dir)) {
    if (!e.isFile || !e.name.endsWith(".json")) continue;
    const path = join(dir, e.name);
    entries.push({ path, mtime: (await Deno.stat(path)).mtime?.getTime() ?? 0 });
  }
  entries.sort((a, b) => b.mtime - a.mtime);
  for (const old of entries.slice(KEEP)) await Deno.remove(old.path).catch(() => {});
}
