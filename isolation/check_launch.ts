/**
 * The verification commands' side of the sandbox: each contract command runs
 * inside the run's backend with the checkout writable, its `.git` and locked
 * files read-only, a private /tmp and HOME, no network, and an environment
 * made of exactly the names checks have always received.
 */
import type { SandboxLevel } from "../sandbox/policy.ts";
import type { VerifyCommandSpec } from "../steps/protocol.ts";
import type { SpotContext } from "../store/context.ts";
import { buildPolicy, keepOutPaths, lockedFiles } from "./step_policy.ts";
import { sandboxForRun } from "./run_sandbox.ts";

/** The private HOME of a check; an empty tmpfs. */
export const CHECK_HOME = "/home/spot-check";

export interface CheckSandbox {
  level: SandboxLevel;
  backend: string;
  /** The command as the verify step must spawn it. */
  wrap(command: VerifyCommandSpec): VerifyCommandSpec;
  /** The binaries the verify step must be allowed to run for these programs. */
  programs(programs: string[]): string[];
}

export async function checkSandbox(ctx: SpotContext, runId: string, cwd: string): Promise<CheckSandbox> {
  const state = await ctx.store.load(runId);
  const box = await sandboxForRun(ctx, state);
  if (box.backend.name === "none") {
    return { level: box.backend.level, backend: "none", wrap: (c) => c, programs: (p) => p };
  }
  const keepOut = keepOutPaths(ctx, state.sourceRoot);
  const locked = await lockedFiles(ctx, runId);
  return {
    level: box.backend.level,
    backend: box.backend.name,
    wrap: (command) => {
      const env: Record<string, string> = {};
      for (const name of command.passEnv) {
        const value = ctx.env(name);
        if (value !== undefined) env[name] = value;
      }
      for (const name of ["TMPDIR", "TMP", "TEMP"]) if (name in env) env[name] = "/tmp";
      Object.assign(env, command.env);
      const policy = buildPolicy(ctx, box, {
        cwd,
        tools: [command.argv[0]],
        home: { path: CHECK_HOME },
        env,
        network: { mode: "none" },
        lockedFiles: locked,
        keepOut,
      });
      return { ...command, argv: box.backend.wrap(policy, command.argv), env: {}, passEnv: [] };
    },
    programs: (programs) => programs.length > 0 ? [box.backend.program(programs)] : [],
  };
}
