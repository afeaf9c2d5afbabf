/**
 * `spot executor ls` for a person: one row per executor the queue knows (name, status, load of capacity, how
 * long ago it last beat, its sandbox, profiles and host). Pure: the verb's result in, text out; `--json`, or a
 * pipe, keeps the JSON.
 */
import type { ExecutorList } from "../../fleet/ls.ts";
import { cell, paint } from "./style.ts";

function ago(at: string, nowMs: number): string {
  const s = Math.max(0, Math.round((nowMs - Date.parse(at)) / 1000));
  return s < 120 ? `${s}s ago` : s < 7200 ? `${Math.round(s / 60)}m ago` : `${Math.round(s / 3600)}h ago`;
}

export function renderExecutors(
  r: ExecutorList,
  options: { color?: boolean; nowMs?: number } = {},
): string {
  if (!r.executors.length) return `no executors on ${cell(r.where)}\n`;
  const nowMs = options.nowMs ?? Date.now();
  const rows = [
    ["NAME", "STATUS", "LOAD", "HEARTBEAT", "SANDBOX", "PROFILES", "HOST"],
    // What another machine announced is shown as text, never as a terminal's escapes.
    ...r.executors.map((e) =>
      [
        e.name,
        e.status,
        `${e.load}/${e.capacity}`,
        ago(e.heartbeatAt, nowMs),
        e.sandbox,
        e.profiles.join(","),
        e.host,
      ]
        .map(cell)
    ),
  ];
  const widths = rows[0].map((_, i) => Math.max(...rows.map((row) => row[i].length)));
  const lines = rows.map((row) => row.map((c, i) => c.padEnd(widths[i])).join("  ").trimEnd());
  lines[0] = paint(options.color ?? false).bold(lines[0]);
  return lines.join("\n") + "\n";
}
