/** What `spot detect` learned about this machine's worker CLIs (the shape of `registry.json`). */

export interface ModelInfo {
  id: string;
  /** Price multiplier from a priced catalog (0 is free). */
  priceFactor?: number;
  free?: boolean;
  /** Legal context sizes in tokens, smallest first. */
  contextWindows?: number[];
  /** Legal reasoning efforts, lowest first. */
  efforts?: string[];
}

export interface CliInfo {
  adapter: string;
  installed: boolean;
  binary: string | null;
  /** How the binary was found: the profile or PI_WORKER_<ADAPTER>_BIN, PATH, or a candidate directory. */
  foundVia: "override" | "path" | "candidate-dir" | null;
  version: string | null;
  minimumVersion: string | null;
  /** null when either version is unknown. */
  versionOk: boolean | null;
  models: ModelInfo[];
  /** Where the model list came from. */
  modelsSource: "cli" | "catalog" | "none";
  error?: string;
}

export interface Registry {
  schemaVersion: 1;
  detectedAt: string;
  /** A digest of PATH, HOME and the binary overrides; a different one makes the cache stale. */
  envKey: string;
  clis: CliInfo[];
}

/** A model id that names itself free (opencode's `…-free` models) or is priced at 0. */
export function isFree(model: ModelInfo): boolean {
  return model.priceFactor === 0 || /(^|[-/:])free$/i.test(model.id);
}
