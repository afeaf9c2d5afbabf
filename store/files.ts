/** Durable file writes: atomic JSON replacement and appended JSON lines. */
import { dirname, join } from "node:path";

const encoder = new TextEncoder();

/** Writes through a temp file, fsyncs it, then renames it over `path`. */
export async function writeJsonAtomic(path: string, value: unknown): Promise<void> {
  await writeTextAtomic(path, JSON.stringify(value, null, 2) + "\n");
}

export async function writeTextAtomic(path: string, text: string): Promise<void> {
  const tmp = join(dirname(path), `.${crypto.randomUUID()}.tmp`);
  const file = await Deno.open(tmp, { write: true, createNew: true, mode: 0o600 });
  try {
    try {
      await file.write(encoder.encode(text));
      await file.sync();
    } finally {
      file.close();
    }
    await Deno.rename(tmp, path);
  } catch (error) {
    await Deno.remove(tmp).catch(() => {});
    throw error;
  }
}

/** True when the file is non-empty and its last byte is not a newline (a line torn by a crash). */
async function endsTorn(path: string): Promise<boolean> {
  let file: Deno.FsFile;
  try {
    file = await Deno.open(path, { read: true });
  } catch {
    return false;
  }
  try {
    const size = (await file.stat()).size;
    if (size === 0) return false;
    await file.seek(size - 1, Deno.SeekMode.Start);
    const last = new Uint8Array(1);
    await file.read(last);
    return last[0] !== 0x0a;
  } finally {
    file.close();
  }
}

/** Appends one JSON line; a single write keeps concurrent appenders from interleaving. */
export async function appendJsonLine(path: string, value: unknown): Promise<void> {
  const prefix = (await endsTorn(path)) ? "\n" : "";
  await Deno.writeFile(path, encoder.encode(prefix + JSON.stringify(value) + "\n"), {
    append: true,
    create: true,
    mode: 0o600,
  });
}

export async function readJsonFile<T>(path: string): Promise<T | null> {
  try {
    return JSON.parse(await Deno.readTextFile(path)) as T;
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return null;
    throw error;
  }
}

/** Reads JSON lines, skipping a torn last line a crash may have left. */
export async function readJsonLines<T>(path: string): Promise<T[]> {
  let text: string;
  try {
    text = await Deno.readTextFile(path);
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
}
