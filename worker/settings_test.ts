import { deepStrictEqual } from "node:assert/strict";
import { join } from "node:path";
import { Profile } from "../schemas/config.ts";
import { launchSettings } from "./settings.ts";

const qoder = Profile.parse({
  adapter: "qoder",
  provider: "qoder",
  model: "free",
  reasoningEffort: "medium",
  maxContextSize: 300_000,
  limits: { maxTurns: 12 },
});

Deno.test("launchSettings() takes Qoder's snapped values from routing.json for the routed profile only", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const file = join(dir, "routing.json");
    await Deno.writeTextFile(
      file,
      JSON.stringify({
        profile: "q",
        worker: { model: "M", reasoningEffort: "high", maxContextSize: 400_000 },
      }),
    );
    deepStrictEqual(await launchSettings(file, "q", qoder), {
      reasoningEffort: "high",
      maxContextSize: 400_000,
      maxTurns: 12,
    });
    // A fallback profile brings its own settings.
    deepStrictEqual(await launchSettings(file, "other", qoder), {
      reasoningEffort: "medium",
      maxContextSize: 300_000,
      maxTurns: 12,
    });
    // A run without routing.json (an old run) keeps the profile's values.
    deepStrictEqual((await launchSettings(join(dir, "none.json"), "q", qoder)).maxContextSize, 300_000);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
