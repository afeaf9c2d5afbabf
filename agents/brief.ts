/**
 * A free-form brief as a run: the same prepared worktree, sandbox and
 * events as a contract run, from a contract spot writes itself. A brief
 * names no checks, so its contract's one check says so and fails: `spot
 * verify` never passes work nobody specified.
 */
import type { TaskContractInput } from "../schemas/task_contract.ts";

/** What the worker is told after the brief (the seed's default prompt, in spot's words). */
const BRIEF_TAIL = "Carry out the brief above, working only inside the current directory. " +
  "End with the result itself: it is what your caller reads.";

export function briefPrompt(brief: string): string {
  return `${brief.trimEnd()}\n\n---\n${BRIEF_TAIL}\n`;
}

export function briefContract(name: string, runId: string): TaskContractInput {
  return {
    schemaVersion: 1,
    runId,
    goal: `Carry out the free-form brief of agent "${name}"`,
    allowedPaths: ["**"],
    acceptanceCriteria: ["The brief is carried out as written"],
    verification: [{
      argv: [
        "sh",
        "-c",
        "echo 'a brief run names no checks: write a task contract to have spot verify it' >&2; exit 1",
      ],
      timeoutSeconds: 10,
    }],
    risk: "low",
  };
}

/** `--brief FILE|TEXT`: the file's text when the value names a readable file, else the value itself. */
export async function readBrief(value: string, resolvePath: (p: string) => string): Promise<string> {
  try {
    const info = await Deno.stat(resolvePath(value));
    if (info.isFile) return await Deno.readTextFile(resolvePath(value));
  } catch {
    // Not a file: the value is the brief.
  }
  return value;
}
