/**
 * Which workers can take a follow-up turn (`spot agent send`): only a CLI
 * that keeps its session where the next attempt finds it can resume one.
 * spot gives every attempt a fresh private HOME, so a CLI that stores its
 * sessions there, or keeps none, starts the next turn with no memory. Each
 * CLI's answer is the `sessions` entry of its record (adapters/clis/).
 */
import { cliRecord, SESSIONS_IN_PRIVATE_HOME, type SessionSupport } from "../clis/mod.ts";

export type { SessionSupport } from "../clis/mod.ts";

export function sessionSupport(adapter: string): SessionSupport {
  return cliRecord(adapter)?.sessions ?? SESSIONS_IN_PRIVATE_HOME;
}
