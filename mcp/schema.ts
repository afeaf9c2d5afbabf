/**
 * The zod pieces every tool's input and output is built from. Values are typed as the CLI's options are
 * (text, flags, whole numbers); what a value may be is checked by the verb, so a bad one comes back with the
 * code the CLI gives it, not a protocol error.
 */
import { z } from "zod";

export const runId = z.string().describe("the run id prepare returned");
export const cwd = z.string().optional().describe(
  "directory the call works in, as the CLI's working directory (default: the server's)",
);
export const sandbox = z.string().optional().describe(
  "OS sandbox: auto (bwrap when usable, else refuse), bwrap, or none (an explicit opt-out the run records)",
);
export const agentName = z.string().describe(
  "the agent's name: letters, digits, _ and -, starting with a letter or digit",
);

/** A JSON object handed on as a file; its keys are checked by spot's own loader, with line:col. */
export function document(what: string) {
  return z.record(z.string(), z.unknown()).optional().describe(what);
}

/** Every tool returns the CLI's JSON: `ok`, `command` and the verb's fields (or `error` when `ok` is false). */
export const output = z.looseObject({
  ok: z.boolean(),
  command: z.string().optional(),
  runId: z.string().nullable().optional(),
});
