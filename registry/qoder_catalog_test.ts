import assert from "node:assert/strict";
import { join } from "node:path";
import fixture from "./fixtures/qoder-models.json" with { type: "json" };
import { parseCatalog, resolvePriceAlias, snapContext, snapEffort } from "./qoder_catalog.ts";
import { CATALOG_TTL_MS, loadQoderCatalog } from "./qoder_catalog_load.ts";

const MODELS = parseCatalog(fixture);

Deno.test("parseCatalog() reads prices, efforts and context windows, skipping broken rows", () => {
  const parsed = parseCatalog({
    data: [
      {
        key: "A",
        price_factor: 0.5,
        efforts: [{ name: "high" }, "low"],
        available_context_windows: ["1M", "200K"],
      },
      { key: "B" },
      { key: "C", price_factor: 0, available: false },
      "junk",
    ],
  });
  assert.deepEqual(parsed, [{
    id: "A",
    priceFactor: 0.5,
    free: false,
    efforts: ["low", "high"],
    contextWindows: [200_000, 1_000_000],
  }]);
});

Deno.test("resolvePriceAlias() pins free, qoder-free and cheapest to the cheapest model", () => {
  for (const alias of ["free", "qoder-free", "cheapest", "FREE"]) {
    assert.equal(resolvePriceAlias(MODELS, alias)?.id, "DeepSeek-Flash", alias);
  }
  assert.equal(resolvePriceAlias(MODELS, "Kimi-K3")?.priceFactor, 1.4);
  assert.equal(resolvePriceAlias(MODELS, "Gone-Model"), null);
  const pricey = MODELS.filter((m) => m.priceFactor! > 0.3);
  assert.equal(resolvePriceAlias(pricey, "free")?.priceFactor, 0.5, "no free model: the cheapest one");
});

Deno.test("snapEffort() and snapContext() move an illegal value to the next legal one, with a warning", () => {
  const model = { id: "M", efforts: ["low", "high", "max"], contextWindows: [200_000, 400_000, 1_000_000] };
  assert.deepEqual(snapEffort(model, "high"), { value: "high" });
  const effort = snapEffort(model, "medium");
  assert.equal(effort.value, "high");
  assert.match(
    effort.warning!,
    /reasoningEffort "medium" is not offered by M \(low\|high\|max\): using "high"/,
  );
  assert.equal(snapEffort(model, "xhigh").value, "max");
  assert.equal(snapContext(model, 300_000).value, 400_000);
  assert.equal(snapContext(model, 2_000_000).value, 1_000_000, "beyond the largest: the largest");
  assert.equal(snapContext(model, 400_000).warning, undefined);
});

Deno.test("loadQoderCatalog() uses the fixture offline, a live answer when given, and caches it 30 minutes", async () => {
  const tmp = await Deno.makeTempDir();
  let clock = Date.parse("2025-01-01T00:00:00Z");
  let fetches = 0;
  const live = { data: [{ key: "Live-Free", price_factor: 0 }] };
  const fakeFetch = ((_url: string, init: RequestInit) => {
    fetches++;
    assert.equal((init.headers as Record<string, string>).authorization, "Bearer pat-123");
    return Promise.resolve(new Response(JSON.stringify(live)));
  }) as unknown as typeof fetch;
  const offline = await loadQoderCatalog({ cacheRoot: tmp, env: () => undefined, now: () => clock });
  assert.equal(offline.source, "fixture");
  const vars: Record<string, string> = {
    PI_WORKER_QODER_CATALOG_URL: "http://127.0.0.1:9/models",
    QODERCN_PERSONAL_ACCESS_TOKEN: "pat-123",
  };
  const options = { cacheRoot: tmp, env: (n: string) => vars[n], now: () => clock, fetch: fakeFetch };
  assert.equal((await loadQoderCatalog(options)).source, "live");
  clock += CATALOG_TTL_MS - 1;
  const cached = await loadQoderCatalog(options);
  assert.equal(cached.source, "cache");
  assert.equal(cached.models[0].id, "Live-Free");
  assert.equal(fetches, 1);
  clock += 2;
  await loadQoderCatalog(options);
  assert.equal(fetches, 2, "a stale cache is fetched again");
  await Deno.remove(join(tmp), { recursive: true });
});
