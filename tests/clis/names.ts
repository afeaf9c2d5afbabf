/**
 * Where source code names a worker CLI. A name counts when the code (comments left out) writes it as a
 * string (`"kimi"`) or as an object key (`kimi: …`), the two shapes a list or a table of CLIs takes. Each
 * CLI's own files may name any CLI: its record file (facts, plan, reader), stream readers, files named after it.
 */
import { CLI_RECORDS } from "../../adapters/clis/mod.ts";

/** The names of a CLI: its adapter name and every binary name it installs under. */
export function cliNames(): Map<string, string> {
  const out = new Map<string, string>();
  for (const r of CLI_RECORDS) {
    for (const n of [r.name, r.defaultBinary, ...(r.detect.alsoNamed ?? [])]) {
      if (!n.includes("/")) out.set(n, r.name);
    }
  }
  return out;
}

/** Whether `file` (relative to the repository) is one of a CLI's own files. */
export function isCliFile(file: string): boolean {
  const names = CLI_RECORDS.map((r) => r.name);
  const [top] = file.split("/");
  const base = file.split("/").pop()!.replace(/\.ts$/, "");
  if (file.startsWith("adapters/clis/") || file.startsWith("adapters/streams/")) return true;
  // A folder of its own (replay/), or a file named after it (adapters/opencode_config.ts, registry/qoder_catalog.ts).
  return names.includes(top) || names.some((n) => base === n || base.startsWith(`${n}_`));
}

/** Code with comments and regular expressions blanked out; strings and template literals kept whole. */
export function codeOnly(text: string): string {
  let out = "";
  let i = 0;
  let last = "";
  while (i < text.length) {
    const c = text[i];
    const next = text[i + 1];
    if (c === "/" && next === "/") {
      while (i < text.length && text[i] !== "\n") i++;
    } else if (c === "/" && next === "*") {
      const end = text.indexOf("*/", i + 2);
      const stop = end === -1 ? text.length : end + 2;
      out += text.slice(i, stop).replace(/[^\n]/g, " ");
      i = stop;
    } else if (c === '"' || c === "'" || c === "`") {
      let j = i + 1;
      while (j < text.length && text[j] !== c) j += text[j] === "\\" ? 2 : 1;
      out += text.slice(i, j + 1);
      i = j + 1;
      last = c;
    } else if (c === "/" && (last === "" || "(,=:[!&|?{};+".includes(last))) {
      // A regular expression literal: up to its closing slash, outside a character class.
      let j = i + 1;
      let inClass = false;
      while (j < text.length && text[j] !== "\n" && (inClass || text[j] !== "/")) {
        if (text[j] === "\\") j++;
        else if (text[j] === "[") inClass = true;
        else if (text[j] === "]") inClass = false;
        j++;
      }
      out += text.slice(i, j + 1).replace(/[^\n]/g, " ");
      i = j + 1;
      last = "/";
    } else {
      out += c;
      if (!/\s/.test(c)) last = c;
      i++;
    }
  }
  return out;
}

/** The CLI names `text` writes as code, each once, in the order found. */
export function namesIn(text: string, names: Iterable<string>): string[] {
  const code = codeOnly(text);
  const found: string[] = [];
  for (const name of names) {
    const literal = new RegExp(`(["'\`])${name}\\1`);
    const key = new RegExp(`(^|[{,])\\s*${name}\\s*:(?!:)`, "m");
    if (literal.test(code) || key.test(code)) found.push(name);
  }
  return found;
}
