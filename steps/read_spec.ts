/**
 * A step's spec, as spot writes it on the step's stdin and closes it. Spot may start a step before its spec
 * is ready (the step's Deno starts while spot builds what it runs on), so a step waits here; an empty stdin
 * means spot gave up on it before sending one (the work it was started for did not happen), and the step
 * ends at once without doing anything. No file is read: the spec (a worker's environment among it) is never
 * on disk, and a step needs no read permission for it.
 */

/** The spec, or null when stdin closed empty. */
export async function readSpec<T>(): Promise<T | null> {
  // While it waits, the step loads what starting its first child needs (Deno loads it on first use, ~3 ms):
  // a command is only described here, never started, so no permission is asked for.
  void new Deno.Command(Deno.execPath(), { stdin: "null", stdout: "piped", stderr: "piped" });
  const chunks: Uint8Array[] = [];
  let size = 0;
  const buffer = new Uint8Array(64 * 1024);
  for (;;) {
    const n = await Deno.stdin.read(buffer);
    if (n === null) break;
    chunks.push(buffer.slice(0, n));
    size += n;
  }
  if (size === 0) return null;
  const all = new Uint8Array(size);
  let at = 0;
  for (const chunk of chunks) {
    all.set(chunk, at);
    at += chunk.length;
  }
  return JSON.parse(new TextDecoder().decode(all)) as T;
}
