/**
 * The verification commands' side of the sandbox: each contract command runs
 * inside the run's backend with the checkout writable, its `.git` and locked
 * files read-only, a private /tmp and HOME, no network, and an environment
 * made of exactly the names checks have always received.
 */
import { isAbsolute, join } from "../base/path.ts";
import { within } from "../sandbox/host_paths.ts";
import type { Enforcement, SandboxLevel } from "../schemas/sandbox_record.ts";
import { resolveTools } from "../sandbox/tool_roots.ts";
import type { VerifyCommandSpec } from "../steps/protocol.ts";
import type { SpotContext } from "../store/context.ts";
import { dependencyBinds } from "./dependency_binds.ts";
import { combine } from "./enforcement.ts";
import { cwdFacts, hostFacts, lockedFiles } from "./host_facts.ts";
import { effectiveUid, sandboxForRun } from "./run_sandbox.ts";
import { buildStepPolicy } from "./step_policy.ts";
import { PYTHON_GUARD_DIR } from "./runner_guard/runner_guard.ts";

const exists = (path: string) => {
  try {
    Deno.lstatSync(path);
    return true;
  } catch {
    return false;
  }
};

/** The private HOME of a check; an empty tmpfs. */
export const CHECK_HOME = "/home/spot-check";

export interface CheckLaunch {
  level: SandboxLevel;
  backend: string;
  /** The commands as the verify step must spawn them. */
  commands: VerifyCommandSpec[];
  /** The binaries the verify step must be allowed to run. */
  programs: string[];
  /** What the checks' policies enforced (null under `none`: see sandboxDetails). */
  enforcement: Enforcement | null;
  /**
   * Dirs bwrap will create in the tree as mount points for the dependency binds: the caller removes them
   * (when still empty) after the checks, so the user's checkout is left as it was after integration.
   */
  mountPoints: string[];
}

function checkEnv(ctx: SpotContext, command: VerifyCommandSpec): Record<string, string> {
  const env: Record<string, string> = {};
  for (const name of command.passEnv) {
    const value = ctx.env(name);
    if (value !== undefined) env[name] = value;
  }
  for (const name of ["TMPDIR", "TMP", "TEMP"]) if (name in env) env[name] = "/tmp";
  return Object.assign(env, command.env);
}

export async function checkLaunch(
  ctx: SpotContext,
  runId: string,
  cwd: string,
  commands: VerifyCommandSpec[],
): Promise<CheckLaunch> {
  const state = await ctx.store.load(runId);
  const box = await sandboxForRun(ctx, state);
  const programs = commands.map((c) => c.argv[0]).filter((p) => isAbsolute(p));
  if (box.backend.name === "none") {
    return {
      level: box.backend.level,
      backend: "none",
      commands,
      programs,
      enforcement: null,
      mountPoints: [],
    };
  }
  const host = hostFacts(ctx, box, state.sourceRoot);
  const here = await cwdFacts(cwd, {
    lockedFiles: await lockedFiles(ctx, state),
    viewDir: join(ctx.store.dir(runId), "git-view", "check"),
    identity: state.identity,
  });
  const enforcements: Enforcement[] = [];
  // Only the user's own checkout (the checks after integration) keeps a dependency dir it has: in a tree spot
  // made, a dir that is already there came from the worker's diff, and the real one is bound over it.
  const binds = dependencyBinds(state.dependencies, cwd, cwd === state.sourceRoot ? exists : () => false);
  const wrapped = commands.map((command) => {
    const policy = buildStepPolicy(
      {
        kind: "check",
        cwd,
        tools: resolveTools([command.argv[0]], host.home),
        binds,
        // spot's Python guard (one sitecustomize.py), which the checks' PYTHONPATH names.
        spotFiles: exists(PYTHON_GUARD_DIR) ? [PYTHON_GUARD_DIR] : [],
        home: { path: CHECK_HOME },
        env: checkEnv(ctx, command),
        network: { mode: "none" },
      },
      host,
      here,
    );
    enforcements.push(box.backend.enforcement(policy, { uid: effectiveUid() }));
    return { ...command, argv: box.backend.wrap(policy, command.argv), env: {}, passEnv: [] };
  });
  return {
    level: box.backend.level,
    backend: box.backend.name,
    commands: wrapped,
    programs: programs.length > 0 ? [box.backend.program(programs)] : [],
    enforcement: combine(enforcements),
    mountPoints: binds.map((b) => b.to).filter((to) => within(to, cwd) && !exists(to)),
  };
}
