/**
 * Small pure helpers for the dashboard's HTML. Values reach the `html` tag
 * only as plain strings or numbers: hono trusts any object marked as escaped,
 * and a worker-written JSON object must never pass for one.
 */
import { html } from "hono/html";

export type Html = ReturnType<typeof html>;

/** Any value as plain text for the `html` tag to escape. */
export function text(value: unknown): string {
  if (value === null || value === undefined) return "";
  if (typeof value === "string") return value;
  if (typeof value === "number" || typeof value === "boolean") return String(value);
  try {
    return JSON.stringify(value) ?? "";
  } catch {
    return "";
  }
}

export function clip(value: unknown, max: number): string {
  const s = text(value).replace(/\s+/g, " ").trim();
  return s.length > max ? s.slice(0, max - 1) + "…" : s;
}

/** Long text cut in the middle, so both ends show (`openrouter/…/deepseek-v4-flash`); the whole goes in a title. */
export function clipMiddle(value: unknown, max: number): string {
  const s = text(value).replace(/\s+/g, " ").trim();
  if (s.length <= max) return s;
  const head = Math.floor((max - 1) / 3);
  return `${s.slice(0, head)}…${s.slice(s.length - (max - 1 - head))}`;
}

export function int(n: number): string {
  return Number.isFinite(n) ? Math.round(n).toLocaleString("en-US") : "-";
}

/** 12,345 → "12.3k": cards stay short on a phone. */
export function compact(n: number): string {
  if (!Number.isFinite(n)) return "-";
  if (Math.abs(n) >= 1e6) return `${(n / 1e6).toFixed(1)}M`;
  if (Math.abs(n) >= 1e4) return `${(n / 1e3).toFixed(1)}k`;
  return int(n);
}

export function usd(n: number): string {
  return Number.isFinite(n) ? `$${n < 1 ? n.toFixed(4) : n.toFixed(2)}` : "-";
}

export function pct(ratio: number | null): string {
  return ratio === null || !Number.isFinite(ratio) ? "-" : `${(ratio * 100).toFixed(1)}%`;
}

export function shortSha(sha: unknown): string {
  const s = text(sha);
  return /^[0-9a-f]{7,64}$/.test(s) ? s.slice(0, 8) : clip(s, 12);
}

/** A CSS class suffix from a value, or "other": never a worker-chosen class name. */
export function tone(value: unknown): string {
  const s = text(value);
  return /^[a-zA-Z][a-zA-Z-]{0,30}$/.test(s) ? s.toLowerCase() : "other";
}

/**
 * An error code such as INTEGRATION_BLOCKED that may wrap only after an underscore, never inside a word: each
 * part is its own text, with a break opportunity (`<wbr>`) between them.
 */
export function codeName(value: unknown, cls = ""): Html {
  const parts = text(value).match(/[^_]+_*|_+/g) ?? [];
  return html`<code class="code-name${cls ? ` ${cls}` : ""}">${
    parts.map((p, i) => i === 0 ? p : html`<wbr>${p}`)
  }</code>`;
}

/** A commit's short hash, on one line. */
export function sha(value: unknown): Html {
  return html`<code class="sha">${shortSha(value)}</code>`;
}

export function badge(kind: "status" | "caller", value: unknown): Html {
  return html`<span class="badge ${kind} ${kind}-${tone(value)}">${text(value)}</span>`;
}

/** "2025-01-01T10:11:12.345Z" → "2025-01-01 10:11:12": readable, and sortable by eye. */
export function when(iso: unknown): string {
  const s = text(iso);
  return /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d/.test(s) ? s.slice(0, 19).replace("T", " ") : s;
}

export function yesNo(value: boolean | null | undefined): string {
  return value === true ? "yes" : value === false ? "no" : "-";
}

/** 65_000 → "1m 05s": a task's time at a glance; "-" when unknown. */
export function duration(ms: number | null): string {
  if (ms === null || !Number.isFinite(ms) || ms < 0) return "-";
  const s = Math.floor(ms / 1000);
  if (s < 60) return `${s}s`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m}m ${String(s % 60).padStart(2, "0")}s`;
  return `${Math.floor(m / 60)}h ${String(m % 60).padStart(2, "0")}m`;
}
