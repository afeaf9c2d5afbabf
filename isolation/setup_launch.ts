/**
 * A dependency setup, sandboxed: one shell command in the setup tree, the tree
 * writable, a private /tmp and HOME, and network only through the egress proxy
 * to the allowlisted registries. Without an OS sandbox there is no proxy to
 * force: the command gets the network the user has, and the run records it.
 */
import { join } from "../base/path.ts";
import { resolveTools } from "../sandbox/tool_roots.ts";
import { which } from "../sandbox/which.ts";
import type { RunState } from "../schemas/run_state.ts";
import type { Enforcement } from "../schemas/sandbox_record.ts";
import type { StepMessage, VerifyStepSpec } from "../steps/protocol.ts";
import type { SpotContext } from "../store/context.ts";
import { type Egress, startEgress } from "./egress.ts";
import { cwdFacts, hostFacts } from "./host_facts.ts";
import { effectiveUid, sandboxForRun } from "./run_sandbox.ts";
import { buildStepPolicy } from "./step_policy.ts";
import { killProgram, runStep } from "./step_runner.ts";

/** The private HOME of a setup (npm's and pip's caches land here). */
export const SETUP_HOME = "/home/spot-setup";
/** Enough of an installer's output to see why it failed. */
const SETUP_OUTPUT_CHARS = 200_000;

export interface SetupOutcome {
  exitCode: number | null;
  timedOut: boolean;
  durationMs: number;
  output: string;
  /** What the setup could reach: the allowlist, or "unrestricted" without an OS sandbox. */
  network: string;
  enforcement: Enforcement | null;
}

export async function runSetupCommand(
  ctx: SpotContext,
  state: RunState,
  options: { cwd: string; command: string; tools: string[]; allow: string[]; timeoutSeconds: number },
): Promise<SetupOutcome> {
  const box = await sandboxForRun(ctx, state);
  const path = ctx.env("PATH") ?? "";
  const sh = which("sh", "/usr/bin:/bin") ?? "/bin/sh";
  const env: Record<string, string> = { PATH: path, LANG: ctx.env("LANG") ?? "C.UTF-8", CI: "1" };
  let command: VerifyStepSpec["commands"][number] = {
    argv: [sh, "-c", options.command],
    timeoutSeconds: options.timeoutSeconds,
    env,
    passEnv: [],
  };
  let egress: Egress | null = null;
  let enforcement: Enforcement | null = null;
  let program = sh;
  if (box.backend.name !== "none") {
    egress = await startEgress(ctx, {
      runId: state.runId,
      allow: options.allow,
      logName: "setup-egress.jsonl",
      timeoutMs: (options.timeoutSeconds + 60) * 1000,
    });
    const host = hostFacts(ctx, box, state.sourceRoot);
    const tools = options.tools.map((t) => which(t, path)).filter((t): t is string => t !== null);
    const policy = buildStepPolicy(
      {
        kind: "setup",
        cwd: options.cwd,
        tools: resolveTools([sh, ...tools], host.home),
        home: { path: SETUP_HOME },
        env,
        network: {
          mode: "proxy",
          hostSocket: egress.socket,
          deno: host.deno,
          bridgeScript: host.bridgeScript,
          allow: options.allow,
        },
      },
      host,
      await cwdFacts(options.cwd, {
        lockedFiles: [],
        viewDir: join(ctx.store.dir(state.runId), "git-view", "setup"),
        identity: state.identity,
      }),
    );
    enforcement = box.backend.enforcement(policy, { uid: effectiveUid() });
    command = { ...command, argv: box.backend.wrap(policy, command.argv), env: {} };
    program = box.backend.program(command.argv);
  }
  let result: Extract<StepMessage, { t: "command" }> | null = null;
  const killBinary = killProgram(ctx);
  try {
    const step = await runStep(ctx, {
      kind: "setup",
      runId: state.runId,
      policy: {
        read: [options.cwd],
        write: [],
        run: [program, ...(killBinary ? [killBinary] : [])],
        env: [],
        net: [],
      },
      spec: {
        cwd: options.cwd,
        commands: [command],
        maxChars: SETUP_OUTPUT_CHARS,
        killBinary,
      } satisfies VerifyStepSpec,
      env: {},
      timeoutMs: (options.timeoutSeconds + 30) * 1000,
      sandbox: box.backend.level,
      sandboxBackend: box.backend.name,
      enforcement,
      onMessage: (m) => {
        if (m.t === "command") result = m;
        if (m.t === "command") ctx.progress?.(`setup ${state.runId}: exit ${m.exitCode}`);
      },
    });
    const r = result as Extract<StepMessage, { t: "command" }> | null;
    return {
      exitCode: r?.exitCode ?? step.result.exitCode,
      timedOut: r?.timedOut ?? step.result.timedOut,
      durationMs: r?.durationMs ?? step.result.durationMs,
      output: r ? `${r.stdout}${r.stderr}` : step.result.stderr,
      network: egress ? options.allow.join(", ") || "none" : "unrestricted (no OS sandbox)",
      enforcement,
    };
  } finally {
    await egress?.stop();
  }
}
