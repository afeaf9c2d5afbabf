/** Finds a worker CLI's binary: the override variable, then PATH, then the adapter's candidate dirs. */
import { join } from "../base/path.ts";
import type { WorkerAdapter } from "../adapters/types.ts";
import { which } from "../sandbox/which.ts";

export type EnvReader = (name: string) => string | undefined;

/** `PI_WORKER_<ADAPTER>_BIN`, the variable that points spot at a CLI installed off PATH. */
export function binaryEnvName(adapter: string): string {
  return `PI_WORKER_${adapter.toUpperCase().replace(/[^A-Z0-9]/g, "_")}_BIN`;
}

export interface Located {
  binary: string | null;
  foundVia: "override" | "path" | "candidate-dir" | null;
  /** What was looked for, for a message when nothing was found. */
  wanted: string;
}

export function locateBinary(
  adapterName: string,
  adapter: Pick<WorkerAdapter, "defaultBinary" | "detect">,
  options: { env: EnvReader; profileBinary?: string },
): Located {
  const override = options.profileBinary ?? (options.env(binaryEnvName(adapterName)) || undefined);
  const path = options.env("PATH") ?? "";
  if (override) return { binary: which(override, path), foundVia: "override", wanted: override };
  const names = [adapter.defaultBinary, ...(adapter.detect?.alsoNamed ?? [])];
  const wanted = names.join(" or ");
  // Every name on PATH first: a CLI the user put on PATH wins over one in an install directory.
  for (const name of names) {
    const onPath = which(name, path);
    if (onPath) return { binary: onPath, foundVia: "path", wanted };
  }
  const home = options.env("HOME");
  for (const dir of adapter.detect?.candidateDirs ?? []) {
    if (!home && !dir.startsWith("/")) continue;
    for (const name of names) {
      const candidate = which(join(dir.startsWith("/") ? dir : join(home!, dir), name), "");
      if (candidate) return { binary: candidate, foundVia: "candidate-dir", wanted };
    }
  }
  return { binary: null, foundVia: null, wanted };
}
