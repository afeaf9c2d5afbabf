import assert from "node:assert/strict";
import { Config } from "../schemas/config.ts";
import { profileWithKey, similarNames } from "./credential_hint.ts";

Deno.test("similarNames() finds a variable sharing a distinctive word or a few edits away", () => {
  const names = ["DEEPSEEK_KEY", "DEEPSEK_API_KEY", "OPENAI_API_KEY", "PATH"];
  assert.deepEqual(similarNames("DEEPSEEK_API_KEY", names), ["DEEPSEEK_KEY", "DEEPSEK_API_KEY"]);
});

Deno.test("similarNames() does not match on generic words like API or KEY alone", () => {
  assert.deepEqual(similarNames("KIMI_API_KEY", ["OPENAI_API_KEY", "ANTHROPIC_API_KEY"]), []);
});

Deno.test("profileWithKey() names another profile whose key is set", () => {
  const config = Config.parse({
    profiles: {
      a: { provider: "p", model: "m", apiKeyEnv: "A_KEY" },
      b: { provider: "p", model: "m", apiKeyEnv: "B_KEY" },
    },
  });
  assert.equal(profileWithKey(config, "a", (n) => n === "B_KEY" ? "x" : undefined), "b");
  assert.equal(profileWithKey(config, "a", () => undefined), null);
});
