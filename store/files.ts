/** Durable file writes: atomic JSON replacement and appended JSON lines. */
import { dirname, join } from "../base/path.ts";
import { timed } from "../base/timings.ts";

const encoder = new TextEncoder();

/** True when something (a file, a directory, a link) is at `path`. */
export function pathExists(path: string): boolean {
  try {
    Deno.lstatSync(path);
    return true;
  } catch {
    return false;
  }
}

export interface AtomicOptions {
  /**
   * False: replace atomically but skip the fsync, for a record of live processes only (a process lease, the
   * active step). Readers and a killed writer still see the old or the new file whole; what a machine crash
   * could lose, it also ends: the processes it names die with the machine (docs/performance.md).
   */
  durable?: boolean;
}

/** Writes through a temp file, fsyncs it (unless told it need not), then renames it over `path`. */
export async function writeJsonAtomic(
  path: string,
  value: unknown,
  options: AtomicOptions = {},
): Promise<void> {
  await writeTextAtomic(path, JSON.stringify(value, null, 2) + "\n", options);
}

export async function writeTextAtomic(
  path: string,
  text: string,
  options: AtomicOptions = {},
): Promise<void> {
  const tmp = join(dirname(path), `.${crypto.randomUUID()}.tmp`);
  const file = await Deno.open(tmp, { write: true, createNew: true, mode: 0o600 });
  try {
    try {
      await file.write(encoder.encode(text));
      if (options.durable !== false) await timed("fsync", () => file.sync());
    } finally {
      file.close();
    }
    await Deno.rename(tmp, path);
  } catch (error) {
    await Deno.remove(tmp).catch(() => {});
    throw error;
  }
}

/**
 * True when the file is non-empty and its last byte is not a newline (a line torn by a crash). Small reads
 * and appends here are synchronous: a CLI verb pays about 3 ms for its first asynchronous file operation
 * (docs/performance.md), and these block for microseconds.
 */
function endsTorn(path: string): boolean {
  let file: Deno.FsFile;
  try {
    file = Deno.openSync(path, { read: true });
  } catch {
    return false;
  }
  try {
    const size = file.statSync().size;
    if (size === 0) return false;
    file.seekSync(size - 1, Deno.SeekMode.Start);
    const last = new Uint8Array(1);
    file.readSync(last);
    return last[0] !== 0x0a;
  } finally {
    file.close();
  }
}

/** A synchronous body behind the promise every caller awaits: its throw becomes a rejection. */
function settled<T>(body: () => T): Promise<T> {
  try {
    return Promise.resolve(body());
  } catch (error) {
    return Promise.reject(error);
  }
}

/** Appends one JSON line; a single write keeps concurrent appenders from interleaving. */
export function appendJsonLine(path: string, value: unknown): Promise<void> {
  return settled(() => {
    const prefix = endsTorn(path) ? "\n" : "";
    Deno.writeFileSync(path, encoder.encode(prefix + JSON.stringify(value) + "\n"), {
      append: true,
      create: true,
      mode: 0o600,
    });
  });
}

export function readJsonFile<T>(path: string): Promise<T | null> {
  return settled(() => {
    try {
      return JSON.parse(Deno.readTextFileSync(path)) as T;
    } catch (error) {
      if (error instanceof Deno.errors.NotFound) return null;
      throw error;
    }
  });
}

/** Reads JSON lines, skipping a torn last line a crash may have left. */
export function readJsonLines<T>(path: string): Promise<T[]> {
  return settled(() => {
    let text: string;
    try {
      text = Deno.readTextFileSync(path);
    } catch (error) {
      if (error instanceof Deno.errors.NotFound) return [];
      throw error;
    }
    const out: T[] = [];
    for (const line of text.split("\n")) {
      if (!line.trim()) continue;
      try {
        out.push(JSON.parse(line) as T);
      } catch {
        // A line cut by a kill; everything before it is intact.
      }
    }
    return out;
  });
}
