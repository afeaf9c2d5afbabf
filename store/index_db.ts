/**
 * The run index's SQLite file: opened (or created, or replaced when it is
 * unreadable or of another schema version) with the pragmas every reader and
 * writer shares. The file is only a cache of the run directories.
 */
import { DatabaseSync } from "node:sqlite";
import { INDEX_SCHEMA, type Row, SCHEMA_VERSION } from "./index_sql.ts";

/** Larger than any index spot will write (10,000 runs is about 8 MB). */
const MMAP_BYTES = 256 * 1024 * 1024;
/** Waits this long for another spot process's write instead of failing at once. */
const BUSY_TIMEOUT_MS = 5_000;

export interface IndexConnection {
  db: DatabaseSync;
  /** The file's inode when it was opened: another one means it was replaced behind our back. */
  ino: number | null;
}

function init(file: string): IndexConnection {
  try {
    // Goals and worker names are private: SQLite gives its -wal and -shm files this same mode.
    Deno.writeFileSync(file, new Uint8Array(), { createNew: true, mode: 0o600 });
  } catch { /* it exists */ }
  const db = new DatabaseSync(file);
  try {
    db.exec(
      `PRAGMA busy_timeout = ${BUSY_TIMEOUT_MS}; PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL;` +
        // Reads map the file instead of copying it page by page: `list` at 10,000 runs reads it all.
        ` PRAGMA mmap_size = ${MMAP_BYTES};`,
    );
    db.exec("CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)");
    const version = db.prepare("SELECT value FROM meta WHERE key = 'schema'").get() as Row | undefined;
    if (version?.value !== SCHEMA_VERSION) {
      db.exec(`DROP TABLE IF EXISTS runs; DELETE FROM meta; ${INDEX_SCHEMA}`);
      db.prepare("INSERT INTO meta (key, value) VALUES ('schema', ?)").run(SCHEMA_VERSION);
    }
    return { db, ino: Deno.statSync(file).ino ?? null };
  } catch (error) {
    db.close();
    throw error;
  }
}

export function connectIndex(file: string): IndexConnection {
  try {
    return init(file);
  } catch {
    // Not a database, or a torn one: it is only a cache, so start again from the run directories.
    for (const suffix of ["", "-wal", "-shm"]) {
      try {
        Deno.removeSync(file + suffix);
      } catch { /* already gone */ }
    }
    return init(file);
  }
}

export function readMeta(db: DatabaseSync, key: string): string | null {
  const row = db.prepare("SELECT value FROM meta WHERE key = ?").get(key) as Row | undefined;
  return row ? String(row.value) : null;
}

export function writeMeta(db: DatabaseSync, key: string, value: string): void {
  db.prepare("INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)").run(key, value);
}
