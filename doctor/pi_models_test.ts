import assert from "node:assert/strict";
import { checkPiProvider, keyReference, modelsFile } from "./pi_models.ts";

const env = (vars: Record<string, string>) => (n: string) => vars[n];
const base = { file: "/m.json", provider: "deepseek", profile: "deepseek", apiKeyEnv: "DEEPSEEK_API_KEY" };
const models = (apiKey: string) => ({ providers: { deepseek: { apiKey } } });

Deno.test("keyReference() reads $VAR, ${VAR} and a bare name, not a literal key", () => {
  assert.equal(keyReference("$A_KEY"), "A_KEY");
  assert.equal(keyReference("${A_KEY}"), "A_KEY");
  assert.equal(keyReference("A_KEY"), "A_KEY");
  assert.equal(keyReference("sk-live-123"), null);
});

Deno.test("checkPiProvider() passes when models.json names the profile's variable", () => {
  const r = checkPiProvider(models("$DEEPSEEK_API_KEY"), { ...base, env: env({}) });
  assert.equal(r.ok, true);
});

Deno.test("checkPiProvider() fails a mismatch and tells models.json to use the profile's variable", () => {
  const r = checkPiProvider(models("$DS_KEY"), { ...base, env: env({}) });
  assert.equal(r.ok, false);
  assert.equal(r.fix, 'set providers.deepseek.apiKey to "$DEEPSEEK_API_KEY" in /m.json');
});

Deno.test("checkPiProvider() points the config at the variable that is actually set", () => {
  const r = checkPiProvider(models("${DS_KEY}"), { ...base, env: env({ DS_KEY: "x" }) });
  assert.equal(r.fix, 'set profiles.deepseek.apiKeyEnv to "DS_KEY" in the spot config');
});

Deno.test("checkPiProvider() fails a literal key and warns on an unknown provider", () => {
  assert.equal(checkPiProvider(models("sk-live"), { ...base, env: env({}) }).ok, false);
  const r = checkPiProvider({ providers: {} }, { ...base, env: env({}) });
  assert.equal(r.ok, true);
  assert.equal(r.warn, true);
});

Deno.test("modelsFile() honours PI_WORKER_MODELS_FILE, then PI_CODING_AGENT_DIR, then HOME", () => {
  assert.equal(modelsFile(env({ PI_WORKER_MODELS_FILE: "/x.json", HOME: "/h" })), "/x.json");
  assert.equal(modelsFile(env({ PI_CODING_AGENT_DIR: "/a", HOME: "/h" })), "/a/models.json");
  assert.equal(modelsFile(env({ HOME: "/h" })), "/h/.pi/agent/models.json");
});
