/**
 * A contract or a review given to a tool as an object becomes a file under the state directory, then goes
 * through the same loader as the CLI's `--task FILE` / `--review FILE`: one validation, and its problems
 * located as `file:line:col` in the file written here (pretty-printed, so each key has its own line).
 */
import { join } from "../base/path.ts";
import { SpotError } from "../errors.ts";
import type { SpotContext } from "../store/context.ts";

export type Kind = "task" | "review";

/** Where inline inputs are kept: beside the runs, never inside a worktree. */
export function inputsDir(ctx: SpotContext): string {
  return join(ctx.paths.stateRoot, "mcp", "inputs");
}

/** The file to hand the verb: the caller's path (resolved like the CLI's), or the object written out. */
export function inputFile(
  ctx: SpotContext,
  kind: Kind,
  given: { object?: Record<string, unknown>; file?: string },
  required = true,
): string | undefined {
  const code = kind === "task" ? "CONTRACT_INVALID" : "REVIEW_INVALID";
  if (given.object !== undefined && given.file !== undefined) {
    throw new SpotError(code, `Cannot take both ${kind} and ${kind}File: give one`);
  }
  if (given.file !== undefined) return given.file;
  if (given.object === undefined) {
    if (!required) return undefined;
    throw new SpotError(code, `Cannot go on without a ${kind}: give ${kind} (an object) or ${kind}File`);
  }
  const dir = inputsDir(ctx);
  Deno.mkdirSync(dir, { recursive: true, mode: 0o700 });
  const stamp = ctx.now().replace(/[^0-9]/g, "").slice(0, 14);
  const file = join(dir, `${kind}-${stamp}-${crypto.randomUUID().slice(0, 8)}.json`);
  Deno.writeTextFileSync(file, JSON.stringify(given.object, null, 2) + "\n", { mode: 0o600 });
  return file;
}
