/**
 * What the skill names, held against the code: every `spot` command and its flags (cli/table.ts), every
 * error code (errors.ts ERROR_CODES), every dotted config key (the zod Config schema), and every
 * environment variable (named somewhere in the source). Returns the problems; none is the goal.
 */
import { z } from "zod";
import { ERROR_CODES } from "../../errors.ts";
import { COMMANDS } from "../../cli/table.ts";
import type { CommandSpec } from "../../cli/spec.ts";
import { Config } from "../../schemas/config.ts";

/** Flags every command takes (read before the command, or by commander). */
const GLOBAL_FLAGS = new Set(["--timings", "--help", "--version"]);
/** Dotted names that are files, not config keys. */
const FILE_NAME = /\.(md|json|jsonl|ts|patch|log|toml|env|py|yml|ya?ml)$/;

function flagsOf(spec: CommandSpec): Set<string> {
  return new Set((spec.options ?? []).map((o) => o.flags.split(/\s+/)[0]));
}

function find(table: CommandSpec[], name: string): CommandSpec | undefined {
  return table.find((c) => c.name === name || c.alias === name);
}

/** Code spans and fenced lines: where the skill writes commands, flags, codes and keys. */
export function codeOf(text: string): string[] {
  const out: string[] = [];
  const fenced = text.split(/^```/m);
  fenced.forEach((part, i) => {
    if (i % 2 === 1) out.push(...part.split("\n").slice(1));
    else for (const m of part.matchAll(/`([^`\n]+)`/g)) out.push(m[1]);
  });
  return out;
}

function checkCommand(words: string[], problems: string[], where: string): void {
  let table = COMMANDS;
  let spec: CommandSpec | undefined;
  let i = 0;
  const path: string[] = [];
  while (i < words.length && !words[i].startsWith("-")) {
    const next = find(table, words[i]);
    if (!next) {
      if (!spec) problems.push(`${where}: "spot ${words[i]}" is no command`);
      else if (spec.commands) problems.push(`${where}: "spot ${path.join(" ")} ${words[i]}" is no command`);
      break;
    }
    spec = next;
    path.push(words[i]);
    i++;
    if (!spec.commands) break;
    table = spec.commands;
  }
  if (!spec) return;
  const flags = flagsOf(spec);
  for (const w of words) {
    const flag = w.match(/^(--[a-z][a-z-]*)/)?.[1];
    if (flag && !flags.has(flag) && !GLOBAL_FLAGS.has(flag)) {
      problems.push(`${where}: "spot ${path.join(" ")}" has no ${flag}`);
    }
  }
}

function configHas(path: string[]): boolean {
  // deno-lint-ignore no-explicit-any
  let schema: any = Config;
  for (const key of path) {
    while (schema?.unwrap && !(schema instanceof z.ZodObject)) schema = schema.unwrap();
    if (schema instanceof z.ZodRecord) continue;
    if (!(schema instanceof z.ZodObject) || !(key in schema.shape)) return false;
    schema = schema.shape[key];
  }
  return true;
}

export function skillProblems(text: string, where: string, sourceText: string): string[] {
  const problems: string[] = [];
  const allFlags = new Set<string>(GLOBAL_FLAGS);
  const walk = (t: CommandSpec[]) =>
    t.forEach((c) => {
      flagsOf(c).forEach((f) => allFlags.add(f));
      walk(c.commands ?? []);
    });
  walk(COMMANDS);
  for (const code of codeOf(text)) {
    // A shell comment is prose: "# … spot meters your session" names no command.
    for (const m of code.replace(/(^|\s)#.*$/, "").matchAll(/(?:^|\s)spot\s+(.*)$/g)) {
      const words = m[1].split(/\s+/);
      const cut = words.findIndex((w) => ["#", "|", "&&", ";"].includes(w));
      checkCommand(cut === -1 ? words : words.slice(0, cut), problems, where);
    }
    for (const m of code.matchAll(/(?:^|\s)(--[a-z][a-z-]*)/g)) {
      if (!allFlags.has(m[1])) problems.push(`${where}: no command has ${m[1]}`);
    }
    for (const m of code.matchAll(/\b[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+\b/g)) {
      const name = m[0];
      if (name in ERROR_CODES) continue;
      if (!sourceText.includes(`"${name}"`) && !sourceText.includes(`const ${name} `)) {
        problems.push(`${where}: ${name} is neither an error code, a variable spot reads nor a constant`);
      }
    }
    const key = code.trim().match(/^([a-z][A-Za-z0-9]*(?:\.[a-z][A-Za-z0-9]*)+)$/)?.[1];
    if (key && !FILE_NAME.test(key) && !configHas(key.split("."))) {
      problems.push(`${where}: ${key} is no config key`);
    }
    const top = code.trim().match(/^([a-z][A-Za-z0-9]*)$/)?.[1];
    if (
      top && /^(max|always|frozen|caller|default)[A-Z]/.test(top) && !configHas([top])
    ) {
      problems.push(`${where}: ${top} is no config key`);
    }
  }
  return problems;
}
