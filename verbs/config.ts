/** `spot config path|show|validate|migrate`: these work even when the config itself is broken. */
import { SpotError } from "../errors.ts";
import type { Config } from "../schemas/config.ts";
import {
  type ConfigWarning,
  type FileWarning,
  formatWarning,
  loadConfigWithWarnings,
  readConfigText,
} from "../config/load.ts";
import { readConfig } from "../config/parse.ts";
import { migrateConfigText } from "../config/migrate.ts";
import { type EnvReader, resolvePaths } from "../store/paths.ts";
import { writeTextAtomic } from "../store/files.ts";

type Warn = (text: string, warning?: FileWarning) => void;

export async function configPath(env: EnvReader): Promise<{ path: string; exists: boolean }> {
  const path = resolvePaths(env).configFile;
  return { path, exists: (await readConfigText(path)) !== null };
}

function told(path: string, warnings: ConfigWarning[], warn?: Warn): ConfigWarning[] {
  for (const w of warnings) warn?.(formatWarning(path, w), { file: path, ...w });
  return warnings;
}

/** The effective config: the file with every default filled in (a missing file is shown, not written). */
export async function configShow(
  env: EnvReader,
  warn?: Warn,
): Promise<{ path: string; config: Config; warnings: ConfigWarning[] }> {
  const path = resolvePaths(env).configFile;
  const { config, warnings } = await loadConfigWithWarnings(path, undefined, { write: false });
  return { path, config, warnings: told(path, warnings, warn) };
}

async function existingText(path: string, verb: string): Promise<string> {
  const text = await readConfigText(path);
  if (text === null) {
    throw new SpotError("CONFIG_INVALID", `Cannot ${verb} config "${path}": the file does not exist`, {
      details: {
        hint: "the first command that changes something (prepare, ...) creates it with defaults; " +
          "spot config show prints them",
      },
    });
  }
  return text;
}

/** Checks the file without writing anything; a missing file is reported, not created. */
export async function configValidate(env: EnvReader, warn?: Warn) {
  const path = resolvePaths(env).configFile;
  const { config, warnings } = readConfig(path, await existingText(path, "validate"));
  return {
    path,
    valid: true as const,
    profiles: Object.keys(config.profiles),
    defaultProfile: config.defaultProfile,
    warnings: told(path, warnings, warn),
  };
}

/** `<file>.bak-<UTC time>`, made with createNew so an existing backup is never overwritten. */
async function backUp(path: string, text: string, now: Date): Promise<string> {
  const stamp = now.toISOString().replace(/[-:]/g, "").replace(/\.\d+Z$/, "Z");
  for (let n = 1;; n++) {
    const backup = `${path}.bak-${stamp}${n === 1 ? "" : `-${n}`}`;
    try {
      await Deno.writeTextFile(backup, text, { createNew: true, mode: 0o600 });
      return backup;
    } catch (error) {
      if (!(error instanceof Deno.errors.AlreadyExists)) throw error;
    }
  }
}

/** Rewrites the file with spot's names for every legacy key (ignored ones removed), after a backup. */
export async function configMigrate(env: EnvReader, _warn?: Warn, now = () => new Date()) {
  const path = resolvePaths(env).configFile;
  const text = await existingText(path, "migrate");
  const migration = migrateConfigText(path, text);
  if (migration.text === null) return { file: path, backup: null, changes: [] };
  const backup = await backUp(path, text, now());
  await writeTextAtomic(path, migration.text);
  return {
    file: path,
    backup,
    changes: migration.changes,
    note: "each legacy key was edited in place; a JSONC comment inside or beside a changed key may be lost " +
      "(the backup keeps the file as it was)",
  };
}
