/**
 * What every human view shares: whether to colour (a terminal, unless `NO_COLOR` or a dumb terminal says
 * no), the few colours it uses, text made safe for a terminal (a worker writes diffs, messages and file
 * names, and an escape sequence in them must not reach the screen), and aligned columns. Pure.
 */
import { stripTerminal } from "../../store/worker_log.ts";

/** https://no-color.org: any non-empty NO_COLOR turns colour off; so does a terminal that cannot show it. */
export function colorWanted(env: (name: string) => string | undefined): boolean {
  return !env("NO_COLOR") && env("TERM") !== "dumb";
}

export interface Paint {
  bold(text: string): string;
  dim(text: string): string;
  red(text: string): string;
  green(text: string): string;
  yellow(text: string): string;
  cyan(text: string): string;
}

const sgr = (open: number, close: number) => (text: string) =>
  text === "" ? text : `\x1b[${open}m${text}\x1b[${close}m`;

const COLORS: Paint = {
  bold: sgr(1, 22),
  dim: sgr(2, 22),
  red: sgr(31, 39),
  green: sgr(32, 39),
  yellow: sgr(33, 39),
  cyan: sgr(36, 39),
};
const PLAIN: Paint = {
  bold: (t) => t,
  dim: (t) => t,
  red: (t) => t,
  green: (t) => t,
  yellow: (t) => t,
  cyan: (t) => t,
};

export function paint(color: boolean): Paint {
  return color ? COLORS : PLAIN;
}

/** Any value as one line a terminal shows as it is: escapes and control characters dropped, blanks folded. */
export function cell(value: unknown): string {
  if (value === null || value === undefined || value === "") return "-";
  return stripTerminal(String(value)).replace(/\s+/g, " ").trim() || "-";
}

/** A line of worker-written text (a diff line): escapes dropped, tabs kept. */
export function safeLine(text: string): string {
  return stripTerminal(text).replace(/\n/g, " ");
}

/** An ISO time as `YYYY-MM-DD HH:MM` (UTC), the way a table has room for it. */
export function shortTime(value: unknown): string {
  const text = typeof value === "string" ? value : "";
  const m = /^(\d{4}-\d{2}-\d{2})T(\d{2}:\d{2})/.exec(text);
  return m ? `${m[1]} ${m[2]}` : cell(value);
}

/** How a status reads: green when it landed or succeeded, red when it failed, yellow when it waits on someone. */
export function statusColor(status: string, p: Paint): string {
  if (/^(integrated|succeeded|ready|passed|committed|approved)$/.test(status)) return p.green(status);
  if (/^(failed|blocked|cancelled)$/.test(status)) return p.red(status);
  if (/^(reviewing|selfReviewing|revising)$/.test(status)) return p.yellow(status);
  return status;
}

/** Rows under a header, each column as wide as its widest cell; the last column is left ragged. */
export function columns(
  header: string[],
  rows: string[][],
  options: { paintCell?: (column: number, text: string) => string; bold?: (text: string) => string } = {},
): string[] {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? "").length)));
  // Colour goes on after the width is measured, so escape codes never count toward it.
  const line = (cells: string[], painter?: (column: number, text: string) => string) =>
    cells.map((c, i) => {
      const shown = painter ? painter(i, c) : c;
      return i === cells.length - 1 ? shown : shown + " ".repeat(widths[i] - c.length);
    }).join("  ").trimEnd();
  const bold = options.bold ?? ((text: string) => text);
  return [bold(line(header)), ...rows.map((r) => line(r, options.paintCell))];
}
