/**
 * `spot discard` for a person: the run is discarded (or was already), from which status, where its diff was
 * saved and what was removed. Pure: the verb's result in, text out; `--json`, or a pipe, keeps the JSON.
 */
import { cell, paint } from "./style.ts";

type Json = Record<string, unknown>;

/** The result of `discard` (lifecycle/discard.ts). */
export type DiscardResult = Json;

const done = (flag: unknown, yes: string, no: string) => flag === true ? yes : no;

export function renderDiscard(result: DiscardResult, options: { color?: boolean } = {}): string {
  const p = paint(options.color ?? false);
  const again = result.alreadyDiscarded === true;
  const bytes = typeof result.diffBytes === "number" ? result.diffBytes : null;
  const rows: [string, string][] = [
    [
      "diff",
      result.diffFile
        ? `${cell(result.diffFile)}${
          bytes === null ? "" : bytes === 0 ? " (empty: the worktree held no change)" : ` (${bytes} bytes)`
        }`
        : "none saved (no worktree to read)",
    ],
    ["worktree", done(result.worktreeRemoved, "removed", again ? "already gone" : "was gone")],
    ["branch", done(result.branchRemoved, "removed", again ? "already gone" : "kept")],
    ["slot", done(result.slotFreed, "freed", "held none")],
  ];
  const title = again
    ? p.dim("was already discarded")
    : `discarded${result.previousStatus ? ` (it was ${cell(result.previousStatus)})` : ""}`;
  return [
    `${p.bold(`run ${cell(result.runId)}`)}  ${title}`,
    ...rows.map(([k, v]) => `  ${p.dim(k.padEnd(8))}  ${v}`),
    "",
  ].join("\n");
}
