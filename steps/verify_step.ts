/**
 * Step program: runs the contract's verification commands as argv (never a
 * shell), one after another, with a timeout and an output cap each, and
 * reports every result. Its spec comes on stdin (read_spec.ts).
 */
import { spawnProcess } from "../sandbox/spawn.ts";
import { emit, watchParent } from "./emit.ts";
import type { VerifyStepSpec } from "./protocol.ts";
import { readSpec } from "./read_spec.ts";

// No spec: spot gave the step up before its work was ready.
const spec = (await readSpec<VerifyStepSpec>()) ?? Deno.exit(0);
const controller = new AbortController();
for (const sig of ["SIGTERM", "SIGINT", "SIGHUP"] as const) {
  Deno.addSignalListener(sig, () => controller.abort());
}
const stopWatching = watchParent(() => controller.abort());

for (const [index, command] of spec.commands.entries()) {
  if (controller.signal.aborted) break;
  const env: Record<string, string> = {};
  for (const name of command.passEnv) {
    const value = Deno.env.get(name);
    if (value !== undefined) env[name] = value;
  }
  Object.assign(env, command.env);
  const result = await spawnProcess(command.argv, {
    cwd: spec.cwd,
    env,
    timeoutMs: command.timeoutSeconds * 1000,
    signal: controller.signal,
    killBinary: spec.killBinary,
    maxOutputChars: spec.maxChars,
  });
  const sent = emit({
    t: "command",
    index,
    argv: command.argv,
    exitCode: result.exitCode,
    signal: result.signal,
    timedOut: result.timedOut,
    durationMs: result.durationMs,
    stdout: result.stdout,
    stderr: result.stderr,
    stdoutTruncated: result.stdoutTruncated,
    stderrTruncated: result.stderrTruncated,
    spawnError: result.spawnError,
  });
  if (!sent) break;
}
stopWatching();
emit({ t: "done" });
Deno.exit(controller.signal.aborted ? 130 : 0);
