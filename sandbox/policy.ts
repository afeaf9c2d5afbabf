/**
 * What a permission-scoped step may touch, as data. The transform to Deno
 * flags is pure (deno_flags.ts); spawning happens in spawn.ts only.
 */

export type { SandboxLevel } from "../schemas/sandbox_record.ts";

export interface StepPolicy {
  /** Absolute path of the step program. */
  script: string;
  /** Absolute paths the step may read. */
  read: string[];
  /** Absolute paths the step may write. */
  write: string[];
  /** Resolved absolute binaries the step may start. */
  run: string[];
  /** Environment variable names the step may read. */
  env: string[];
  /** host:port pairs; empty means no network. */
  net: string[];
}
