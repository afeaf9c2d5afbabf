/**
 * Shell completion scripts, generated from the command table (itself built from the verb table): commands,
 * subcommands, each command's options, and the values they take: fixed ones (`--sandbox auto|bwrap|none`),
 * files and directories, and the run ids, agent names and job ids of this machine, which the script asks
 * `spot complete runs|agents|jobs` for when it needs them (cli/completions_test.ts drives bash in bash).
 */
import type { CommandSpec } from "./spec.ts";
import { optionShape } from "./spec.ts";

export const SHELLS = ["bash", "zsh", "fish"] as const;
export type Shell = typeof SHELLS[number];

interface Entry {
  /** The words that name it (`agent start`). */
  path: string[];
  help: string;
  options: { long: string; takesValue: boolean; help: string; value: string }[];
  /** What each positional takes, in order; the last repeats when it is variadic. */
  args: string[];
  variadic: boolean;
}

/** A value's kind as the script reads it: `@runs`, `@file`, `a,b,c` for fixed values, empty for free text. */
function valueOf(spec: { values?: readonly string[]; complete?: string }): string {
  if (spec.complete) return `@${spec.complete}`;
  return spec.values ? spec.values.join(",") : "";
}

function entries(table: CommandSpec[], prefix: string[] = []): Entry[] {
  const out: Entry[] = [];
  for (const c of table) {
    if (c.hidden) continue;
    const path = [...prefix, c.name];
    const options = (c.options ?? []).map((o) => ({
      ...optionShape(o.flags),
      help: o.help,
      value: valueOf(o),
    }));
    const args = (c.args ?? []).map(valueOf);
    out.push({ path, help: c.help, options, args, variadic: c.args?.at(-1)?.variadic === true });
    if (c.commands) out.push(...entries(c.commands, path));
  }
  return out;
}

const children = (all: Entry[], path: string[]) =>
  all.filter((e) => e.path.length === path.length + 1 && path.every((w, i) => e.path[i] === w));

function bash(table: CommandSpec[]): string {
  const all = entries(table);
  const cases = all.map((e) => {
    const subs = children(all, e.path).map((c) => c.path.at(-1));
    const opts = e.options.map((o) => o.long).join(" ");
    const vals = e.options.filter((o) => o.takesValue).map((o) => `${o.long}=${o.value}`).join(" ");
    return `    "${e.path.join(" ")}") subs="${subs.join(" ")}" opts="${opts}" vals="${vals}" args="${
      e.args.join(" ")
    }" variadic=${e.variadic ? 1 : 0} ;;`;
  });
  const top = children(all, []).map((e) => e.path[0]).join(" ");
  const known = `|${all.map((e) => e.path.join(" ")).join("|")}|`;
  return `# spot completions for bash: source <(spot completions bash)
_spot_values() {
  case "$1" in
    @file) compgen -f -- "$2" ;;
    @dir) compgen -d -- "$2" ;;
    @runs|@agents|@jobs) compgen -W "$("$3" complete "\${1#@}" 2>/dev/null)" -- "$2" ;;
    "") ;;
    *) compgen -W "\${1//,/ }" -- "$2" ;;
  esac
}
_spot() {
  local cur="\${COMP_WORDS[COMP_CWORD]}" prev="\${COMP_WORDS[COMP_CWORD-1]}" path="" next i
  local subs="" opts="" vals="" args="" variadic=0 v n=0 start=1
  local known="${known}"
  # The command path: the leading words that name a command (an agent's name or an option ends it).
  for ((i = 1; i < COMP_CWORD; i++)); do
    if [ -z "$path" ]; then next="\${COMP_WORDS[i]}"; else next="$path \${COMP_WORDS[i]}"; fi
    case "$known" in *"|$next|"*) path="$next"; start=$((i + 1)) ;; *) break ;; esac
  done
  case "$path" in
    "") subs="${top}" opts="--help --version" ;;
${cases.join("\n")}
  esac
  # The value of an option that takes one: its fixed values, paths, or this machine's ids and names.
  for v in $vals; do
    if [ "\${v%%=*}" = "$prev" ]; then
      COMPREPLY=($(_spot_values "\${v#*=}" "$cur" "\${COMP_WORDS[0]}"))
      return
    fi
  done
  if [[ "$cur" == -* || ( -z "$args" && -z "$subs" ) ]]; then
    COMPREPLY=($(compgen -W "$opts" -- "$cur"))
    return
  fi
  # Which positional this word is: the words since the path that are neither options nor their values.
  for ((i = start; i < COMP_CWORD; i++)); do
    case "\${COMP_WORDS[i]}" in
      --*=*) ;;
      --*) case " $vals " in *" \${COMP_WORDS[i]}="*) i=$((i + 1)) ;; esac ;;
      *) n=$((n + 1)) ;;
    esac
  done
  local kinds=($args)
  if [ -n "$subs" ]; then
    COMPREPLY=($(compgen -W "$subs" -- "$cur"))
  elif [ "$n" -lt "\${#kinds[@]}" ]; then
    COMPREPLY=($(_spot_values "\${kinds[n]}" "$cur" "\${COMP_WORDS[0]}"))
  elif [ "$variadic" = 1 ]; then
    COMPREPLY=($(_spot_values "\${kinds[-1]}" "$cur" "\${COMP_WORDS[0]}"))
  else
    COMPREPLY=($(compgen -W "$opts" -- "$cur"))
  fi
}
complete -o default -F _spot spot pi-worker
`;
}

function zsh(table: CommandSpec[]): string {
  return `# spot completions for zsh: source <(spot completions zsh)
autoload -U +X bashcompinit && bashcompinit
${bash(table).split("\n").slice(1).join("\n")}`;
}

const fishQuote = (text: string) => `'${text.replace(/\\/g, "\\\\").replace(/'/g, "\\'")}'`;

/** Fish's arguments for a value: `-F` for a path, the ids spot lists, or the fixed values. */
function fishValues(value: string): string {
  if (value === "@file" || value === "@dir") return "-F";
  if (value.startsWith("@")) return `-f -a ${fishQuote(`(spot complete ${value.slice(1)} 2>/dev/null)`)}`;
  return value ? `-f -a ${fishQuote(value.split(",").join(" "))}` : "-f";
}

function fish(table: CommandSpec[]): string {
  const all = entries(table);
  const lines = ["# spot completions for fish: spot completions fish | source", "complete -c spot -f"];
  for (const e of all) {
    const parent = e.path.slice(0, -1);
    const name = e.path.at(-1)!;
    const condition = parent.length === 0
      ? "__fish_use_subcommand"
      : `__fish_seen_subcommand_from ${parent.at(-1)}; and not __fish_seen_subcommand_from ${
        children(all, parent).map((c) => c.path.at(-1)).join(" ")
      }`;
    lines.push(`complete -c spot -n ${fishQuote(condition)} -a ${name} -d ${fishQuote(e.help)}`);
    const here = fishQuote(`__fish_seen_subcommand_from ${name}`);
    for (const o of e.options) {
      const flag = `-l ${o.long.slice(2)}${o.takesValue ? ` -r ${fishValues(o.value)}` : ""}`;
      lines.push(`complete -c spot -n ${here} ${flag} -d ${fishQuote(o.help)}`);
    }
    const positional = e.args.find((a) => a.startsWith("@") && a !== "@file" && a !== "@dir");
    if (positional) lines.push(`complete -c spot -n ${here} ${fishValues(positional)}`);
  }
  return lines.join("\n") + "\n";
}

/** The completion script for `shell`. */
export function completionScript(table: CommandSpec[], shell: Shell): string {
  return { bash, zsh, fish }[shell](table);
}
