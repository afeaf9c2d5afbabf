/**
 * What the provider forwarder returns must never carry the real key back to
 * the worker: a redirect that keeps the query (`?key=...`), an error body
 * that quotes the request's Authorization header, a header that echoes it.
 * Every spelling of the key a response could hold (as is, URL-encoded) is
 * replaced by the worker's placeholder, in headers and across the chunks of
 * a streamed body. Pure.
 */

const encoder = new TextEncoder();

/** The spellings of `key` to look for, longest first (so an encoded form is not half-replaced). */
export function keySpellings(key: string): string[] {
  return [...new Set([key, encodeURIComponent(key)])].filter((k) => k.length > 0)
    .sort((a, b) => b.length - a.length);
}

export function redactText(text: string, key: string | null, placeholder: string): string {
  if (!key) return text;
  let out = text;
  for (const spelling of keySpellings(key)) out = out.split(spelling).join(placeholder);
  return out;
}

function indexOf(haystack: Uint8Array, needle: Uint8Array, from: number): number {
  outer: for (let i = from; i <= haystack.length - needle.length; i++) {
    for (let j = 0; j < needle.length; j++) if (haystack[i + j] !== needle[j]) continue outer;
    return i;
  }
  return -1;
}

function concat(parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

/**
 * Replaces the key in a byte stream. A match can straddle two chunks, so the
 * last (longest spelling - 1) bytes of each chunk wait for the next one.
 */
export function redactStream(
  key: string | null,
  placeholder: string,
): TransformStream<Uint8Array, Uint8Array> {
  if (!key) return new TransformStream();
  const needles = keySpellings(key).map((k) => encoder.encode(k));
  const replacement = encoder.encode(placeholder);
  const hold = Math.max(...needles.map((n) => n.length)) - 1;
  let carry: Uint8Array = new Uint8Array();
  return new TransformStream({
    transform(chunk, controller) {
      const buf = concat([carry, chunk]);
      const out: Uint8Array[] = [];
      let i = 0;
      for (;;) {
        let best = -1;
        let len = 0;
        for (const n of needles) {
          const at = indexOf(buf, n, i);
          if (at >= 0 && (best < 0 || at < best)) [best, len] = [at, n.length];
        }
        if (best < 0) break;
        out.push(buf.subarray(i, best), replacement);
        i = best + len;
      }
      const keep = Math.max(i, buf.length - hold);
      out.push(buf.subarray(i, keep));
      carry = buf.slice(keep);
      const bytes = concat(out);
      if (bytes.length > 0) controller.enqueue(bytes);
    },
    flush(controller) {
      if (carry.length > 0) controller.enqueue(carry);
    },
  });
}
