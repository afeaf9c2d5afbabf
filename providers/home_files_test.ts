import assert from "node:assert/strict";
import { homeCopies, mergeHomeFile, narrowHomeFile } from "./home_files.ts";

const env = (vars: Record<string, string>) => (name: string) => vars[name];

Deno.test("homeCopies: config always, logins only for a profile without a key variable", () => {
  const keyed = homeCopies("codex", { env: env({ HOME: "/h" }), keyed: true });
  assert.deepEqual(keyed, [{ from: "/h/.codex/config.toml", to: ".codex/config.toml", login: false }]);
  const oauth = homeCopies("codex", { env: env({ HOME: "/h", CODEX_HOME: "/c" }), keyed: false });
  assert.deepEqual(oauth.map((c) => [c.from, c.to, c.login]), [
    ["/c/config.toml", ".codex/config.toml", false],
    ["/c/auth.json", ".codex/auth.json", true],
  ]);
});

Deno.test("homeCopies: pi follows PI_WORKER_MODELS_FILE and PI_CODING_AGENT_DIR; XDG dirs are honoured", () => {
  assert.deepEqual(
    homeCopies("pi", { env: env({ HOME: "/h", PI_CODING_AGENT_DIR: "/a" }), keyed: true }).map((c) => c.from),
    ["/a/models.json", "/a/settings.json"],
  );
  assert.equal(
    homeCopies("pi", { env: env({ PI_WORKER_MODELS_FILE: "/m/models.json" }), keyed: true })[0].from,
    "/m/models.json",
  );
  assert.deepEqual(
    homeCopies("opencode", { env: env({ HOME: "/h", XDG_DATA_HOME: "/d" }), keyed: false }).map((c) =>
      c.from
    ),
    ["/h/.config/opencode/opencode.json", "/h/.config/opencode/opencode.jsonc", "/d/opencode/auth.json"],
  );
  assert.deepEqual(homeCopies("replay", { env: env({ HOME: "/h" }), keyed: false }), []);
  assert.deepEqual(homeCopies("pi", { env: env({}), keyed: false }), [], "no HOME, nothing to copy");
});

Deno.test("mergeHomeFile: spot's top-level keys win over the user's; non-JSON is spot's as it is", () => {
  const merged = JSON.parse(
    mergeHomeFile('{"theme":"dark","retry":{"enabled":false}}', '{"retry":{"enabled":true}}'),
  );
  assert.deepEqual(merged, { theme: "dark", retry: { enabled: true } });
  assert.equal(mergeHomeFile("not json", "spot"), "spot");
  assert.equal(mergeHomeFile("[1]", '{"a":1}'), '{"a":1}');
});

Deno.test("narrowHomeFile: pi's models.json keeps only the profile's provider, never another's literal key", () => {
  const user = JSON.stringify({
    providers: { mine: { baseUrl: "https://m", apiKey: "MY_KEY" }, other: { apiKey: "sk-literal-secret" } },
  });
  const shown = narrowHomeFile("pi", ".pi/agent/models.json", user, "mine");
  assert.deepEqual(JSON.parse(shown), { providers: { mine: { baseUrl: "https://m", apiKey: "MY_KEY" } } });
  assert.ok(!shown.includes("sk-literal-secret"));
  assert.deepEqual(JSON.parse(narrowHomeFile("pi", ".pi/agent/models.json", user, "absent")), {
    providers: {},
  });
  assert.equal(narrowHomeFile("pi", ".pi/agent/models.json", "{oops", "mine"), "{}");
  assert.equal(narrowHomeFile("codex", ".codex/config.toml", "x = 1", "openai"), "x = 1");
});
