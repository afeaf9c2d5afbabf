/**
 * The worker's private HOME gets the user's own CLI configuration (providers/home_files.ts): the files that
 * exist are copied in before the adapter's files are written, merged where both name one file, and removed
 * again after the turn, so no token or config outlives it in the run directory.
 */
import { join } from "../base/path.ts";
import { homeCopies, mergeHomeFile, narrowHomeFile } from "../providers/home_files.ts";
import type { SpotContext } from "../store/context.ts";

/** A config file bigger than this is not a config file: it is skipped. */
const MAX_BYTES = 1_000_000;

export interface HomeFiles {
  /** Absolute paths in the private home, shown read-only inside the sandbox. */
  readOnly: string[];
  /** Login files the CLI may rewrite: writable private copies. */
  writable: string[];
}

async function readSmall(path: string): Promise<string | null> {
  try {
    const info = await Deno.stat(path);
    if (!info.isFile || info.size > MAX_BYTES) return null;
    return await Deno.readTextFile(path);
  } catch {
    return null;
  }
}

/**
 * Copies what exists into `homeDir`, with the adapter's own files (`planFiles`, not yet written) merged over
 * the user's. Returns the copies, which the caller shows to the sandbox and removes after the turn.
 */
export async function copyHomeFiles(
  ctx: SpotContext,
  options: {
    adapter: string;
    provider: string;
    keyed: boolean;
    homeDir: string;
    planFiles: { path: string; content: string }[];
  },
): Promise<HomeFiles> {
  const out: HomeFiles = { readOnly: [], writable: [] };
  for (const copy of homeCopies(options.adapter, { env: ctx.env, keyed: options.keyed })) {
    const read = await readSmall(copy.from);
    if (read === null) continue;
    const text = narrowHomeFile(options.adapter, copy.to, read, options.provider);
    const to = join(options.homeDir, copy.to);
    const planned = options.planFiles.find((f) => f.path === to);
    if (planned) {
      // Written by the caller with the plan; removed with the copies, since it now holds the user's settings.
      planned.content = mergeHomeFile(text, planned.content);
      out.readOnly.push(to);
      continue;
    }
    await Deno.mkdir(join(to, ".."), { recursive: true });
    await Deno.writeTextFile(to, text, { mode: 0o600 });
    (copy.login ? out.writable : out.readOnly).push(to);
  }
  return out;
}

/** Removes the copies after the turn; a file the CLI already removed is fine. */
export async function removeHomeFiles(files: HomeFiles): Promise<void> {
  for (const path of [...files.readOnly, ...files.writable]) await Deno.remove(path).catch(() => {});
}
