/** The global audit log: one line when a command starts and one when it ends. */
import type { SpotContext } from "../store/context.ts";
import { appendJsonLine, pathExists } from "../store/files.ts";

export async function audited<T>(
  ctx: SpotContext,
  command: string,
  args: Record<string, unknown>,
  fn: () => Promise<T>,
): Promise<T> {
  // A command that only looks leaves no trace where spot has never run: no state dir just for its audit line.
  if (ctx.readOnly && !pathExists(ctx.paths.stateRoot)) return await fn();
  const started = Date.now();
  const runId = typeof args.id === "string" ? args.id : undefined;
  const base = {
    command,
    runId,
    caller: ctx.env("PARENT_AGENT") ?? ctx.env("PI_WORKER_CALLER") ?? "cli",
    pid: Deno.pid,
  };
  await appendJsonLine(ctx.paths.auditFile, { at: ctx.now(), ...base, phase: "start", args });
  try {
    const result = await fn();
    await appendJsonLine(ctx.paths.auditFile, {
      at: ctx.now(),
      ...base,
      phase: "end",
      ok: true,
      durationMs: Date.now() - started,
    });
    return result;
  } catch (error) {
    const code = (error as { code?: string }).code ?? "INTERNAL";
    await appendJsonLine(ctx.paths.auditFile, {
      at: ctx.now(),
      ...base,
      phase: "end",
      ok: false,
      durationMs: Date.now() - started,
      error: { code, message: (error as Error).message },
    }).catch(() => {});
    throw error;
  }
}
