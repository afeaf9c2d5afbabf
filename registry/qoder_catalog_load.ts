/**
 * Where Qoder's priced catalog comes from: a cache younger than 30 minutes,
 * else the URL in PI_WORKER_QODER_CATALOG_URL (spot's own network rights stop
 * at localhost, so a live catalog arrives through a local relay or a file:
 * URL), else the fixture shipped with spot.
 */
import { join } from "../base/path.ts";
import fixture from "./fixtures/qoder-models.json" with { type: "json" };
import { parseCatalog } from "./qoder_catalog.ts";
import type { EnvReader } from "./locate.ts";
import type { CliInfo, ModelInfo } from "./types.ts";

/** The seed caches the catalog this long: the roster changes weekly, prices rarely within a day. */
export const CATALOG_TTL_MS = 30 * 60_000;
export const CATALOG_URL_ENV = "PI_WORKER_QODER_CATALOG_URL";
const TOKEN_ENV = "QODERCN_PERSONAL_ACCESS_TOKEN";

export interface CatalogResult {
  models: ModelInfo[];
  source: "cache" | "live" | "fixture";
  fetchedAt: string;
}

export interface CatalogOptions {
  cacheRoot: string;
  env: EnvReader;
  now?: () => number;
  fetch?: typeof fetch;
}

async function readCache(file: string, now: number): Promise<CatalogResult | null> {
  try {
    const cached = JSON.parse(await Deno.readTextFile(file));
    const age = now - Date.parse(cached.fetchedAt);
    if (!(age >= 0 && age < CATALOG_TTL_MS) || !Array.isArray(cached.models)) return null;
    return { models: cached.models, source: "cache", fetchedAt: cached.fetchedAt };
  } catch {
    return null;
  }
}

async function fetchLive(url: string, options: CatalogOptions): Promise<ModelInfo[] | null> {
  const token = options.env(TOKEN_ENV);
  try {
    const response = await (options.fetch ?? fetch)(url, {
      headers: token ? { authorization: `Bearer ${token}` } : {},
      signal: AbortSignal.timeout(10_000),
    });
    if (!response.ok) {
      await response.body?.cancel();
      return null;
    }
    const models = parseCatalog(await response.json());
    return models.length > 0 ? models : null;
  } catch {
    return null;
  }
}

export async function loadQoderCatalog(options: CatalogOptions): Promise<CatalogResult> {
  const now = (options.now ?? Date.now)();
  const file = join(options.cacheRoot, "qoder-models.json");
  const cached = await readCache(file, now);
  if (cached) return cached;
  const url = options.env(CATALOG_URL_ENV);
  const live = url ? await fetchLive(url, options) : null;
  const fetchedAt = new Date(now).toISOString();
  if (!live) return { models: parseCatalog(fixture), source: "fixture", fetchedAt };
  await Deno.mkdir(options.cacheRoot, { recursive: true });
  await Deno.writeTextFile(file, JSON.stringify({ fetchedAt, models: live }, null, 2) + "\n");
  return { models: live, source: "live", fetchedAt };
}

/** A detected Qoder row with its models priced from the catalog; any other row as it is. */
export async function withCatalogPrices(cli: CliInfo, options: CatalogOptions): Promise<CliInfo> {
  if (cli.adapter !== "qoder" || !cli.installed) return cli;
  const catalog = await loadQoderCatalog(options);
  const priced = new Set(catalog.models.map((m) => m.id));
  const unpriced = cli.models.filter((m) => !priced.has(m.id));
  return { ...cli, models: [...catalog.models, ...unpriced], modelsSource: "catalog" };
}
