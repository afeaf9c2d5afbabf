/**
 * A child's output stream as spawn.ts keeps it: the first N characters, whether more came, and each line
 * handed to a listener as it completes (a CR before the newline dropped), even beyond the cap.
 */
export class Capture {
  text = "";
  truncated = false;
  #partial = "";
  constructor(readonly max: number, readonly onLine?: (line: string) => void) {}

  push(chunk: string): void {
    if (this.text.length < this.max) {
      const room = this.max - this.text.length;
      this.text += chunk.slice(0, room);
      if (chunk.length > room) this.truncated = true;
    } else if (chunk.length > 0) {
      this.truncated = true;
    }
    if (!this.onLine) return;
    const parts = (this.#partial + chunk).split("\n");
    this.#partial = parts.pop() ?? "";
    for (const line of parts) this.onLine(line.endsWith("\r") ? line.slice(0, -1) : line);
  }

  end(): void {
    if (this.onLine && this.#partial.length > 0) this.onLine(this.#partial);
    this.#partial = "";
  }
}

/**
 * Reads the stream into the capture, decoding UTF-8 across chunk boundaries. A reader and a streaming
 * TextDecoder, not `pipeThrough(new TextDecoderStream())`: the first pipe in a process builds Deno's
 * transform-stream machinery, ~10 ms paid by every verb and step at its first child (docs/performance.md).
 */
export async function pump(stream: ReadableStream<Uint8Array>, capture: Capture): Promise<void> {
  const decoder = new TextDecoder();
  const reader = stream.getReader();
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      capture.push(decoder.decode(value, { stream: true }));
    }
    capture.push(decoder.decode());
  } catch {
    // The stream is cut when we stop waiting for a drain; what we have is kept.
  } finally {
    capture.end();
  }
}
