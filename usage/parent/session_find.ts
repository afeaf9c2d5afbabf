/**
 * Finding a parent's session file by thread id. Exactly one file may match:
 * none, or two, means any number we printed could be someone else's, so
 * both are errors that say what was searched.
 */
import { join } from "../../base/path.ts";
import { SpotError } from "../../errors.ts";

/** Real thread ids are UUIDs; a short id could match another session's file by accident. */
const THREAD_ID_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._-]{7,127}$/;

export function checkThreadId(agent: string, threadId: string, source: string): void {
  if (!THREAD_ID_PATTERN.test(threadId)) {
    throw new SpotError(
      "PARENT_METER_FAILED",
      `Cannot meter the ${agent} parent with thread id "${threadId}" from ${source}: ` +
        "expected the session's full id (8-128 letters, digits, '.', '_' or '-')",
      { details: { agent, threadId, source } },
    );
  }
}

/** Every `*.jsonl` under `root` whose name satisfies `matches`; symlinks are not followed. */
export async function findJsonl(root: string, matches: (name: string) => boolean): Promise<string[]> {
  const found: string[] = [];
  const walk = async (dir: string): Promise<void> => {
    let entries: Deno.DirEntry[];
    try {
      entries = await Array.fromAsync(Deno.readDir(dir));
    } catch (error) {
      if (error instanceof Deno.errors.NotFound || error instanceof Deno.errors.NotADirectory) return;
      throw error;
    }
    for (const entry of entries) {
      const path = join(dir, entry.name);
      if (entry.isDirectory) await walk(path);
      else if (entry.isFile && entry.name.endsWith(".jsonl") && matches(entry.name)) found.push(path);
    }
  };
  await walk(root);
  return found.sort();
}

/** How often a missing session file is looked for again while the wait lasts. */
const SETTLE_POLL_MS = 50;

/**
 * The single session file for `threadId`, or a clear error. A parent writes its transcript in batches
 * (Claude Code flushes its queue every 100 ms or so), so a meter taken as the session's first tool call can
 * come before the file exists: a missing file is looked for again for up to `settleMs`. Two files are refused
 * at once; waiting cannot make them one.
 */
export async function findSessionFile(
  agent: string,
  root: string,
  threadId: string,
  matches: (name: string) => boolean,
  settleMs = 0,
): Promise<string> {
  const until = Date.now() + settleMs;
  let found = await findJsonl(root, matches);
  while (found.length === 0 && Date.now() < until) {
    await new Promise((resolve) => setTimeout(resolve, Math.min(SETTLE_POLL_MS, until - Date.now())));
    found = await findJsonl(root, matches);
  }
  if (found.length === 0) {
    throw new SpotError(
      "PARENT_METER_FAILED",
      `Cannot meter the ${agent} parent: no session file for thread "${threadId}" under ${root}` +
        (settleMs > 0 ? ` (looked for ${settleMs} ms)` : ""),
      {
        details: {
          agent,
          threadId,
          root,
          settleMs,
          hint: "check the thread id and the agent's home directory",
        },
      },
    );
  }
  if (found.length > 1) {
    throw new SpotError(
      "PARENT_METER_FAILED",
      `Cannot meter the ${agent} parent: thread "${threadId}" matches ${found.length} session files under ${root}`,
      { details: { agent, threadId, root, files: found } },
    );
  }
  return found[0];
}
