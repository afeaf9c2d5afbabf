/**
 * Resolves a command name to an absolute path the way a shell would, without running anything; and the
 * argv that starts a program as the leader of a session of its own without a fork (`sessionArgv`).
 */
import { delimiter, isAbsolute, join } from "../base/path.ts";

function isExecutableFile(path: string): boolean {
  try {
    const info = Deno.statSync(path);
    return info.isFile && ((info.mode ?? 0o111) & 0o111) !== 0;
  } catch {
    return false;
  }
}

/** The absolute path of `name` on `pathVar`, or null. Absolute names are checked as they are. */
export function which(name: string, pathVar: string): string | null {
  if (isAbsolute(name)) return isExecutableFile(name) ? name : null;
  if (name.includes("/")) return null;
  for (const dir of pathVar.split(delimiter)) {
    if (!dir || !isAbsolute(dir)) continue;
    const candidate = join(dir, name);
    if (isExecutableFile(candidate)) return candidate;
  }
  return null;
}

/*
 * Sessions. A child in a session (and so a process group) of its own, started without the fork that Deno's
 * `detached` costs. Deno sets a detached child's session up in the forked child before exec, so it cannot
 * use posix_spawn, and fork copies the parent's page tables: ~8 ms more per spawn in a small verb, ~25 ms in
 * a resident `spot mcp` whose heap holds every verb (docs/performance.md). util-linux's `setsid` started
 * without `detached` (posix_spawn) makes the same session in the child itself and then execs the program
 * in place: the same pid, session and group as before, so every kill, lease and reap works unchanged.
 *
 * Taken only where it changes nothing else: a process that may run any program (unscoped --allow-run, as
 * spot's own; a step's scoped permissions would not cover the program setsid runs, so steps keep
 * `detached`), a `setsid` binary in a system directory, and a program that resolves to an executable file
 * now, so that a missing program is still a spawn error rather than setsid's exit 127.
 */
const SETSID = ["/usr/bin/setsid", "/bin/setsid"];

let program: string | null | undefined;

function setsidProgram(): string | null {
  if (program !== undefined) return program;
  program = null;
  try {
    if (Deno.permissions.querySync({ name: "run" }).state !== "granted") return program;
  } catch {
    return program;
  }
  program = SETSID.find((p) => which(p, "") !== null) ?? null;
  return program;
}

/**
 * The argv that starts `argv` as a session leader through `setsid`, its program resolved on `env.PATH` the
 * way Deno resolves it (argv[0] becomes that absolute path, as Deno passes it); null: use `detached`.
 */
export function sessionArgv(argv: string[], env: Record<string, string>): string[] | null {
  const setsid = setsidProgram();
  if (setsid === null || argv.length === 0) return null;
  const resolved = which(argv[0], env.PATH ?? "");
  return resolved === null ? null : [setsid, resolved, ...argv.slice(1)];
}
