/** What loading a config gives: the config with its defaults, and a warning per legacy key it still uses. */
import type { Config } from "../schemas/config.ts";

/** A legacy key the file still uses (see config/legacy.ts), located like a problem. */
export interface ConfigWarning {
  key: string;
  newKey: string | null;
  message: string;
  line: number;
  col: number;
}

/** A warning with the file it is about: what a verb's JSON carries in its `warnings`. */
export interface FileWarning extends ConfigWarning {
  file: string;
}

export interface LoadedConfig {
  config: Config;
  warnings: ConfigWarning[];
}

/** `file:line:col key: message`, the way problems are printed. */
export function formatWarning(file: string, w: ConfigWarning): string {
  return `${file}:${w.line}:${w.col} ${w.key}: ${w.message}`;
}
