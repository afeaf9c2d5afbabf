import assert from "node:assert/strict";
import { DEFAULT_PROVIDER_ENDPOINTS } from "./endpoints.ts";
import { hostPort, type NetworkProfile, planNetwork } from "./network_plan.ts";
import { parsePiProviders } from "./pi_home.ts";

const facts = (piProviders: ReturnType<typeof parsePiProviders> = null) => ({
  piProviders,
  endpoints: DEFAULT_PROVIDER_ENDPOINTS,
});
const p = (over: Partial<NetworkProfile>): NetworkProfile => ({
  name: "x",
  adapter: "pi",
  provider: "custom",
  ...over,
});

Deno.test("a keyed profile goes through the forwarder: its baseUrl, else pi's models.json, else the provider table", () => {
  assert.deepEqual(planNetwork(p({ apiKeyEnv: "K", baseUrl: "https://a.example/v1" }), facts()), {
    mode: "forwarder",
    upstream: "https://a.example/v1",
    providerType: undefined,
    source: "profile",
  });
  const pi = parsePiProviders(JSON.stringify({
    providers: { "volcengine-plan": { baseUrl: "https://ark.example/api/v3", api: "anthropic-messages" } },
  }));
  assert.deepEqual(planNetwork(p({ provider: "volcengine-plan", apiKeyEnv: "K" }), facts(pi)), {
    mode: "forwarder",
    upstream: "https://ark.example/api/v3",
    providerType: "anthropic-messages",
    source: "pi-models",
  });
  const deepseek = planNetwork(p({ provider: "deepseek", apiKeyEnv: "K" }), facts());
  assert.equal(deepseek.mode === "forwarder" && deepseek.source, "provider-table");
});

Deno.test("pi's models.json only counts for the pi adapter, and only for a keyed profile", () => {
  const pi = parsePiProviders(JSON.stringify({ providers: { custom: { baseUrl: "https://c.example" } } }));
  assert.equal(planNetwork(p({ apiKeyEnv: "K" }), facts(pi)).mode, "forwarder");
  assert.equal(planNetwork(p({ adapter: "claude", apiKeyEnv: "K" }), facts(pi)).mode, "allowlist");
  assert.equal(
    planNetwork(p({}), facts(pi)).mode,
    "unreachable",
    "an OAuth pi profile of an unknown provider",
  );
  const login = planNetwork(p({ provider: "anthropic" }), facts(pi));
  assert.deepEqual(login.mode === "allowlist" && [login.hosts, login.source], [
    ["api.anthropic.com:443"],
    "provider-table",
  ]);
});

Deno.test("OAuth CLIs and CLIs that take no base URL go through the allowlist proxy", () => {
  const opencode = planNetwork(p({ adapter: "opencode", provider: "opencode" }), facts());
  assert.deepEqual(opencode, {
    mode: "allowlist",
    hosts: ["opencode.ai:443", "models.dev:443"],
    source: "cli-defaults",
    keyInSandbox: false,
  });
  const qoder = planNetwork(
    p({ adapter: "qoder", provider: "qoder", apiKeyEnv: "T", baseUrl: "https://q.example" }),
    facts(),
  );
  assert.equal(qoder.mode, "allowlist", "qoder takes no base URL, so its key cannot stay outside");
  assert.equal(qoder.mode === "allowlist" && qoder.keyInSandbox, true);
  assert.deepEqual(qoder.mode === "allowlist" && qoder.hosts, ["q.example:443"]);
  const own = planNetwork(p({ adapter: "trae", provider: "trae", egressHosts: ["h.example:8443"] }), facts());
  assert.deepEqual(own.mode === "allowlist" && [own.hosts, own.source], [["h.example:8443"], "profile"]);
});

Deno.test("egress forces a mode, and a mode that cannot work says what was tried and the fix", () => {
  const forced = planNetwork(
    p({ apiKeyEnv: "K", baseUrl: "http://127.0.0.1:9000/v1", egress: "allowlist" }),
    facts(),
  );
  assert.deepEqual(forced.mode === "allowlist" && forced.hosts, ["127.0.0.1:9000"]);
  const noUrl = planNetwork(p({ adapter: "zcode", provider: "zhipu", egress: "forwarder" }), facts());
  assert.equal(noUrl.mode, "unreachable");
  assert.match(noUrl.mode === "unreachable" ? noUrl.fix : "", /profiles\.x\.egress to "allowlist"/);
  const unknown = planNetwork(p({ provider: "nobody-knows", apiKeyEnv: "K" }), facts());
  assert.deepEqual(unknown.mode === "unreachable" && [unknown.tried, unknown.fix], [
    "forwarder",
    `set profiles.x.baseUrl to the provider's API root, or add "nobody-knows" to providerEndpoints`,
  ]);
  assert.deepEqual(planNetwork(p({ adapter: "replay" }), facts()), { mode: "offline" });
});

Deno.test("hostPort fills in the scheme's port", () => {
  assert.equal(hostPort("https://api.example.com/v1"), "api.example.com:443");
  assert.equal(hostPort("http://127.0.0.1:8080"), "127.0.0.1:8080");
  assert.equal(hostPort("http://[::1]/x"), "::1:80");
});
