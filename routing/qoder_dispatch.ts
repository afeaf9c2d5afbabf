/**
 * Qoder at dispatch time: a price alias (`free`, `qoder-free`, `cheapest`)
 * becomes the cheapest model in the priced catalog, and the profile's
 * reasoningEffort / maxContextSize are snapped to what that model allows.
 * Every adjustment is a warning the run records, never a failure.
 */
import { PRICE_ALIASES, resolvePriceAlias, snapContext, snapEffort } from "../registry/qoder_catalog.ts";
import { loadQoderCatalog } from "../registry/qoder_catalog_load.ts";
import type { SpotContext } from "../store/context.ts";
import type { ProfileChoice } from "./select_profile.ts";

/** What the worker should actually be started with. */
export interface WorkerSettings {
  model: string;
  reasoningEffort?: string;
  maxContextSize?: number;
  /** The alias the model was resolved from, when it was one. */
  resolvedFrom?: string;
  /** Where the catalog came from (Qoder only). */
  catalogSource?: "cache" | "live" | "fixture";
}

export async function adjustForQoder(
  ctx: Pick<SpotContext, "paths" | "env">,
  choice: Pick<ProfileChoice, "model" | "profile">,
): Promise<{ settings: WorkerSettings; warnings: string[] }> {
  const { profile } = choice;
  const settings: WorkerSettings = {
    model: choice.model,
    reasoningEffort: profile.reasoningEffort,
    maxContextSize: profile.maxContextSize,
  };
  if (profile.adapter !== "qoder") return { settings, warnings: [] };
  const catalog = await loadQoderCatalog({ cacheRoot: ctx.paths.cacheRoot, env: ctx.env });
  settings.catalogSource = catalog.source;
  const warnings: string[] = [];
  const pinned = resolvePriceAlias(catalog.models, choice.model);
  if (!pinned) {
    warnings.push(
      `model "${choice.model}" is not in the Qoder catalog (${catalog.source}): settings not checked`,
    );
    return { settings, warnings };
  }
  if (PRICE_ALIASES.has(choice.model.toLowerCase())) {
    settings.resolvedFrom = choice.model;
    settings.model = pinned.id;
    warnings.push(
      `model "${choice.model}" resolved to ${pinned.id} (price ${pinned.priceFactor}x, ${catalog.source} catalog)`,
    );
  }
  if (settings.reasoningEffort) {
    const snap = snapEffort(pinned, settings.reasoningEffort);
    settings.reasoningEffort = snap.value;
    if (snap.warning) warnings.push(snap.warning);
  }
  if (settings.maxContextSize) {
    const snap = snapContext(pinned, settings.maxContextSize);
    settings.maxContextSize = snap.value;
    if (snap.warning) warnings.push(snap.warning);
  }
  return { settings, warnings };
}
