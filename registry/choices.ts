/**
 * The picker's rows: detected CLI models merged with configured profiles.
 * CLIs that detection found not installed are dropped; free rows come first.
 * Pure.
 */
import { cliRecord } from "../adapters/clis/mod.ts";
import type { Config } from "../schemas/config.ts";
import { PRICE_ALIASES } from "./qoder_catalog.ts";
import { isFree, type Registry } from "./types.ts";

export interface WorkerChoice {
  /** Unique within one list: adapter and model. */
  key: string;
  adapter: string;
  model: string;
  /** The profile that runs it (its model is overridden when they differ). */
  profile: string;
  free: boolean;
  costTier?: string;
  priceFactor?: number;
}

/** Models a profile may leave to the CLI's own choice. */
const CLI_DEFAULT_MODELS = new Set(["", "auto", "default"]);
const TIER_RANK: Record<string, number> = { free: 0, cheap: 1, standard: 2, premium: 3 };
/** Profiles that cannot be picked: the built-in worker's model is an episode file, not a model. */
const notPickable = (adapter: string) => cliRecord(adapter)?.builtIn === true;

/** Which profile runs `model` on `adapter`: an exact model match, a CLI-default profile, or the first. */
export function resolveProfileForSelection(config: Config, adapter: string, model: string): string | null {
  const mine = Object.entries(config.profiles).filter(([, p]) =>
    p.adapter === adapter && !notPickable(p.adapter)
  );
  const exact = mine.find(([, p]) => p.model === model);
  const open = mine.find(([, p]) => CLI_DEFAULT_MODELS.has(p.model.toLowerCase()));
  return (exact ?? open ?? mine[0])?.[0] ?? null;
}

export function buildWorkerChoices(registry: Registry | null, config: Config): WorkerChoice[] {
  const missing = new Set(registry?.clis.filter((c) => !c.installed).map((c) => c.adapter) ?? []);
  const rows = new Map<string, WorkerChoice>();
  for (const [name, p] of Object.entries(config.profiles)) {
    if (notPickable(p.adapter) || missing.has(p.adapter)) continue;
    const key = `${p.adapter} ${p.model}`;
    if (rows.has(key)) continue;
    const free = p.costTier === "free" || PRICE_ALIASES.has(p.model.toLowerCase()) || isFree({ id: p.model });
    rows.set(key, { key, adapter: p.adapter, model: p.model, profile: name, free, costTier: p.costTier });
  }
  for (const cli of registry?.clis ?? []) {
    if (!cli.installed) continue;
    for (const model of cli.models) {
      const key = `${cli.adapter} ${model.id}`;
      const profile = resolveProfileForSelection(config, cli.adapter, model.id);
      if (rows.has(key) || !profile) continue;
      rows.set(key, {
        key,
        adapter: cli.adapter,
        model: model.id,
        profile,
        free: isFree(model),
        priceFactor: model.priceFactor,
      });
    }
  }
  const rank = (c: WorkerChoice) => c.free ? 0 : TIER_RANK[c.costTier ?? ""] ?? 4;
  // Array.prototype.sort is stable, so equal ranks keep config-then-detection order.
  return [...rows.values()].sort((a, b) => rank(a) - rank(b));
}

/** The one-line label a person reads. */
export function choiceLabel(choice: WorkerChoice): string {
  const mark = choice.free
    ? "[free]"
    : choice.priceFactor !== undefined
    ? `[${choice.priceFactor}x]`
    : choice.costTier
    ? `[${choice.costTier}]`
    : "";
  return `${choice.adapter.padEnd(9)} ${choice.model} ${mark}`.trimEnd();
}
