/**
 * Every worker CLI spot knows, one record each (record.ts says what a record holds). A new CLI is a new file
 * here and its line below; adapters/clis/records_test.ts fails until both are there and agree.
 * @module
 */
import { claudeCli } from "./claude.ts";
import { codebuddyCli } from "./codebuddy.ts";
import { codexCli } from "./codex.ts";
import { geminiCli } from "./gemini.ts";
import { kiloCli } from "./kilo.ts";
import { kimiCli } from "./kimi.ts";
import { opencodeCli } from "./opencode.ts";
import { piCli } from "./pi.ts";
import { qoderCli } from "./qoder.ts";
import { qwenCli } from "./qwen.ts";
import type { CliRecord } from "./record.ts";
import { replayCli } from "./replay.ts";
import { traeCli } from "./trae.ts";
import { zcodeCli } from "./zcode.ts";

export * from "./record.ts";

/** In the order `spot detect` lists them and the default config gives their profiles. */
export const CLI_RECORDS: readonly CliRecord[] = [
  piCli,
  zcodeCli,
  kimiCli,
  traeCli,
  qoderCli,
  codebuddyCli,
  opencodeCli,
  codexCli,
  claudeCli,
  geminiCli,
  qwenCli,
  kiloCli,
  replayCli,
];

const BY_NAME: ReadonlyMap<string, CliRecord> = new Map(CLI_RECORDS.map((r) => [r.name, r]));

/** Every adapter name, in record order. */
export const CLI_NAMES: readonly string[] = CLI_RECORDS.map((r) => r.name);

/** The record of the CLI a profile's `adapter` names, or undefined for an unknown name. */
export function cliRecord(name: string): CliRecord | undefined {
  return BY_NAME.get(name);
}
