/**
 * Shell completion scripts, generated from the command table: commands, subcommands and each command's
 * options, so they cannot fall behind the CLI (cli/completions_test.ts drives the bash one in bash).
 */
import type { CommandSpec } from "./spec.ts";
import { optionShape } from "./spec.ts";

export const SHELLS = ["bash", "zsh", "fish"] as const;
export type Shell = typeof SHELLS[number];

interface Entry {
  /** The words that name it (`agent start`). */
  path: string[];
  help: string;
  options: { long: string; takesValue: boolean; help: string }[];
}

function entries(table: CommandSpec[], prefix: string[] = []): Entry[] {
  const out: Entry[] = [];
  for (const c of table) {
    if (c.hidden) continue;
    const path = [...prefix, c.name];
    const options = (c.options ?? []).map((o) => ({ ...optionShape(o.flags), help: o.help }));
    out.push({ path, help: c.help, options });
    if (c.commands) out.push(...entries(c.commands, path));
  }
  return out;
}

const children = (all: Entry[], path: string[]) =>
  all.filter((e) => e.path.length === path.length + 1 && path.every((w, i) => e.path[i] === w));

function bash(table: CommandSpec[]): string {
  const all = entries(table);
  const cases = all.map((e) => {
    const words = [
      ...children(all, e.path).map((c) => c.path[c.path.length - 1]),
      ...e.options.map((o) => o.long),
    ];
    return `    "${e.path.join(" ")}") words="${words.join(" ")}" ;;`;
  });
  const top = children(all, []).map((e) => e.path[0]).join(" ");
  const known = `|${all.map((e) => e.path.join(" ")).join("|")}|`;
  return `# spot completions for bash: source <(spot completions bash)
_spot() {
  local cur="\${COMP_WORDS[COMP_CWORD]}" path="" next words="" i
  local known="${known}"
  # The command path: the leading words that name a command (an agent's name or an option ends it).
  for ((i = 1; i < COMP_CWORD; i++)); do
    if [ -z "$path" ]; then next="\${COMP_WORDS[i]}"; else next="$path \${COMP_WORDS[i]}"; fi
    case "$known" in *"|$next|"*) path="$next" ;; *) break ;; esac
  done
  case "$path" in
    "") words="${top} --help --version" ;;
${cases.join("\n")}
  esac
  COMPREPLY=($(compgen -W "$words" -- "$cur"))
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

function fish(table: CommandSpec[]): string {
  const all = entries(table);
  const lines = ["# spot completions for fish: spot completions fish | source", "complete -c spot -f"];
  for (const e of all) {
    const parent = e.path.slice(0, -1);
    const name = e.path[e.path.length - 1];
    const condition = parent.length === 0
      ? "__fish_use_subcommand"
      : `__fish_seen_subcommand_from ${parent[parent.length - 1]}; and not __fish_seen_subcommand_from ${
        children(all, parent).map((c) => c.path[c.path.length - 1]).join(" ")
      }`;
    lines.push(`complete -c spot -n ${fishQuote(condition)} -a ${name} -d ${fishQuote(e.help)}`);
    for (const o of e.options) {
      const flag = `-l ${o.long.slice(2)}${o.takesValue ? " -r" : ""}`;
      lines.push(
        `complete -c spot -n ${fishQuote(`__fish_seen_subcommand_from ${name}`)} ${flag} -d ${
          fishQuote(o.help)
        }`,
      );
    }
  }
  return lines.join("\n") + "\n";
}

/** The completion script for `shell`. */
export function completionScript(table: CommandSpec[], shell: Shell): string {
  return { bash, zsh, fish }[shell](table);
}
