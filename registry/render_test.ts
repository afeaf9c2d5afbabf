import assert from "node:assert/strict";
import { renderRegistry } from "./render.ts";
import type { Registry } from "./types.ts";

Deno.test("renderRegistry() shows versions, model counts, free marks, prices and tiers", () => {
  const registry: Registry = {
    schemaVersion: 1,
    detectedAt: "2025-01-01T00:00:00.000Z",
    envKey: "k",
    clis: [
      {
        adapter: "qoder",
        installed: true,
        binary: "/bin/qoder",
        foundVia: "path",
        version: "1.1.73",
        minimumVersion: null,
        versionOk: null,
        modelsSource: "catalog",
        models: [
          {
            id: "DeepSeek-Flash",
            priceFactor: 0,
            efforts: ["low", "high"],
            contextWindows: [200_000, 1_000_000],
          },
          { id: "Kimi-K3", priceFactor: 1.4 },
        ],
      },
      {
        adapter: "opencode",
        installed: false,
        binary: null,
        foundVia: null,
        version: null,
        minimumVersion: null,
        versionOk: null,
        modelsSource: "none",
        models: [],
      },
    ],
  };
  const text = renderRegistry(registry, { cached: false });
  assert.match(text, /qoder\s+v1\.1\.73\s+2 model\(s\) \(1 free\)/);
  assert.match(text, /- DeepSeek-Flash \[free\] ctx 200K\/1M effort low\|high/);
  assert.match(text, /- Kimi-K3 \[1\.4x\]/);
  assert.match(text, /opencode\s+not installed/);
  assert.ok(!text.includes("\x1b"));
});
