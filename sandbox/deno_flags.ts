/**
 * Pure transform of a step policy into a `deno run` command line. Never emits
 * `-A` or an unscoped `--allow-*`: an empty list means the permission is not
 * granted at all.
 */
import { isAbsolute } from "../base/path.ts";
import type { StepPolicy } from "./policy.ts";

function scoped(flag: string, values: string[]): string[] {
  const unique = [...new Set(values)].filter((v) => v.length > 0);
  if (unique.length === 0) return [];
  for (const v of unique) {
    if (v.includes(",")) throw new TypeError(`Cannot scope ${flag} to "${v}": a comma would split the value`);
  }
  return [`${flag}=${unique.join(",")}`];
}

function requireAbsolute(kind: string, paths: string[]): void {
  for (const p of paths) {
    if (!isAbsolute(p)) throw new TypeError(`Cannot scope ${kind} to "${p}": the path is not absolute`);
  }
}

/** The argv that starts `policy.script` under exactly the policy's permissions. */
export function denoRunArgv(denoPath: string, policy: StepPolicy, args: string[]): string[] {
  requireAbsolute("--allow-read", policy.read);
  requireAbsolute("--allow-write", policy.write);
  requireAbsolute("--allow-run", policy.run);
  requireAbsolute("the step script", [policy.script]);
  return [
    denoPath,
    "run",
    "--no-prompt",
    // Steps import only relative files; no config or lock keeps them independent of the user's project.
    "--no-config",
    "--no-lock",
    ...scoped("--allow-read", policy.read),
    ...scoped("--allow-write", policy.write),
    ...scoped("--allow-run", policy.run),
    ...scoped("--allow-env", policy.env),
    ...scoped("--allow-net", policy.net),
    policy.script,
    ...args,
  ];
}

/** True when an argv grants everything; steps.jsonl must never contain one. */
export function grantsAll(argv: string[]): boolean {
  return argv.some((a) =>
    a === "-A" || a === "--allow-all" ||
    /^--allow-(read|write|run|env|net|sys|ffi|import)$/.test(a)
  );
}
