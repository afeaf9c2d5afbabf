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
    await file.write(encoder.encode(text));
    await file.sync();
  } finally {
    file.close();
  }
  await Deno.rename(tmp, path);
}

/** Appends one JSON line; a single write keeps concurrent appenders from interleaving. */
export async function appendJsonLine(path: string, value: unknown): Promise<void> {
  await Deno.writeFile(path, encoder.encode(JSON.stringify(value) + "\n"), {
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
