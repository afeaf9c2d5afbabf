/**
 * Qoder's priced model catalog, read leniently: price aliases (`free`,
 * `qoder-free`, `cheapest`) resolve to the cheapest reachable model, and a
 * profile's effort or context size is snapped to one the model allows.
 */
import type { ModelInfo } from "./types.ts";

export const PRICE_ALIASES: ReadonlySet<string> = new Set(["free", "qoder-free", "cheapest"]);

/** Efforts from least to most thinking; a model's list is a subset. */
export const EFFORT_SCALE = ["minimal", "low", "medium", "high", "xhigh", "max"] as const;

type Rec = Record<string, unknown>;
const isRec = (v: unknown): v is Rec => typeof v === "object" && v !== null && !Array.isArray(v);

function items(json: unknown): unknown[] {
  if (Array.isArray(json)) return json;
  if (!isRec(json)) return [];
  for (const key of ["data", "models", "items"]) {
    const inner = json[key];
    if (Array.isArray(inner)) return inner;
    if (isRec(inner)) return items(inner);
  }
  return [];
}

/** "200K", "1M", 200000 or {size: …} → tokens. */
function tokens(value: unknown): number | null {
  if (isRec(value)) return tokens(value.size ?? value.value ?? value.tokens);
  if (typeof value === "number" && Number.isFinite(value)) return value;
  if (typeof value !== "string") return null;
  const m = value.trim().match(/^(\d+(?:\.\d+)?)\s*([kKmM]?)$/);
  if (!m) return null;
  const scale = m[2].toLowerCase() === "m" ? 1_000_000 : m[2].toLowerCase() === "k" ? 1_000 : 1;
  return Math.round(Number(m[1]) * scale);
}

function effortName(value: unknown): string | null {
  if (typeof value === "string") return value.toLowerCase();
  if (isRec(value)) return effortName(value.name ?? value.value ?? value.effort);
  return null;
}

/** Models the account can reach, in catalog order; malformed entries are skipped. */
export function parseCatalog(json: unknown): ModelInfo[] {
  const out: ModelInfo[] = [];
  for (const item of items(json)) {
    if (!isRec(item) || item.available === false || item.enabled === false) continue;
    const id = [item.key, item.id, item.model, item.name].find((v) => typeof v === "string" && v);
    const price = Number(item.price_factor ?? item.priceFactor ?? item.price);
    if (typeof id !== "string" || !Number.isFinite(price)) continue;
    const windows = (Array.isArray(item.available_context_windows) ? item.available_context_windows : [])
      .map(tokens).filter((n): n is number => n !== null).sort((a, b) => a - b);
    const efforts = (Array.isArray(item.efforts) ? item.efforts : []).map(effortName)
      .filter((e): e is string => e !== null)
      .sort((a, b) => EFFORT_SCALE.indexOf(a as never) - EFFORT_SCALE.indexOf(b as never));
    out.push({ id, priceFactor: price, free: price === 0, contextWindows: windows, efforts });
  }
  return out;
}

/** The model a price alias stands for: the lowest multiplier, catalog order breaking ties. */
export function resolvePriceAlias(models: readonly ModelInfo[], model: string): ModelInfo | null {
  if (!PRICE_ALIASES.has(model.toLowerCase())) return models.find((m) => m.id === model) ?? null;
  let best: ModelInfo | null = null;
  for (const m of models) if (!best || (m.priceFactor ?? Infinity) < (best.priceFactor ?? Infinity)) best = m;
  return best;
}

/** Rounds up to the next legal value, or down to the largest when the wish is beyond them all. */
function snapUp<T>(legal: readonly T[], rank: (v: T) => number, wanted: T): T {
  const w = rank(wanted);
  return legal.find((v) => rank(v) >= w) ?? legal[legal.length - 1];
}

export interface Snapped<T> {
  value: T;
  /** A sentence for the `worker_warning` event when the value changed. */
  warning?: string;
}

export function snapEffort(model: ModelInfo, wanted: string): Snapped<string> {
  const legal = model.efforts ?? [];
  if (legal.length === 0 || legal.includes(wanted)) return { value: wanted };
  const value = snapUp(legal, (e) => EFFORT_SCALE.indexOf(e as never), wanted);
  return {
    value,
    warning: `reasoningEffort "${wanted}" is not offered by ${model.id} (${
      legal.join("|")
    }): using "${value}"`,
  };
}

export function snapContext(model: ModelInfo, wanted: number): Snapped<number> {
  const legal = model.contextWindows ?? [];
  if (legal.length === 0 || legal.includes(wanted)) return { value: wanted };
  const value = snapUp(legal, (n) => n, wanted);
  return {
    value,
    warning: `maxContextSize ${wanted} is not offered by ${model.id} (${legal.join("|")}): using ${value}`,
  };
}
