import assert from "node:assert/strict";
import {
  basePath,
  downstreamHeaders,
  netPermission,
  presentedKey,
  refuseRoute,
  upstreamHeaders,
} from "./provider_routes.ts";

Deno.test("refuseRoute() lets the chat route through and refuses exfil paths, other routes and methods", () => {
  assert.equal(refuseRoute("openai-completions", "/v1", "POST", "/v1/chat/completions"), null);
  assert.equal(refuseRoute("openai-completions", "/v1", "GET", "/v1/models"), null);
  assert.match(
    refuseRoute("openai-completions", "/v1", "GET", "/v1/exfil")!,
    /not a openai-completions API route/,
  );
  assert.match(refuseRoute("openai-completions", "/v1", "POST", "/v1/embeddings")!, /not a/);
  assert.match(refuseRoute("openai-completions", "/v1", "GET", "/v1/chat/completions")!, /method GET/);
  assert.match(
    refuseRoute("openai-completions", "/v1", "POST", "/other/chat/completions")!,
    /outside the provider/,
  );
});

Deno.test("refuseRoute() refuses paths that are not canonical", () => {
  for (const p of ["/v1/../v1/chat/completions", "/v1//chat/completions", "/v1/%2e%2e/x"]) {
    assert.match(refuseRoute("openai-completions", "/v1", "POST", p)!, /canonical/);
  }
});

Deno.test("refuseRoute() knows each wire API's own routes", () => {
  assert.equal(refuseRoute("openai-responses", "/v1", "POST", "/v1/responses"), null);
  assert.equal(refuseRoute("anthropic-messages", "", "POST", "/v1/messages"), null);
  assert.equal(refuseRoute("anthropic-messages", "/v1", "POST", "/v1/messages/count_tokens"), null);
  assert.equal(
    refuseRoute("google-gemini", "/v1beta", "POST", "/v1beta/models/gemini-2.5-pro:streamGenerateContent"),
    null,
  );
  assert.notEqual(refuseRoute("google-gemini", "/v1beta", "POST", "/v1beta/models/x:deleteModel"), null);
  assert.notEqual(refuseRoute("openai-responses", "/v1", "POST", "/v1/chat/completions"), null);
});

Deno.test("presentedKey() reads the credential from any SDK header or the key query parameter", () => {
  const url = new URL("http://x/v1/models?key=q");
  assert.equal(presentedKey(new Headers({ authorization: "Bearer ph" }), url), "ph");
  assert.equal(presentedKey(new Headers({ "x-api-key": "ph2" }), url), "ph2");
  assert.equal(presentedKey(new Headers(), url), "q");
});

Deno.test("upstreamHeaders() swaps the placeholder for the real key and drops routing headers", () => {
  const h = upstreamHeaders(
    new Headers({
      authorization: "Bearer placeholder",
      host: "127.0.0.1:18765",
      "content-type": "application/json",
      "x-forwarded-for": "1.2.3.4",
      "accept-encoding": "gzip",
    }),
    "sk-real",
  );
  assert.equal(h.get("authorization"), "Bearer sk-real");
  assert.equal(h.get("host"), null);
  assert.equal(h.get("x-forwarded-for"), null);
  assert.equal(h.get("accept-encoding"), "identity");
  assert.equal(h.get("content-type"), "application/json");
  assert.equal(upstreamHeaders(new Headers({ "x-api-key": "placeholder" }), null).get("x-api-key"), null);
});

Deno.test("downstreamHeaders() passes content headers and drops cookies and encodings", () => {
  const h = downstreamHeaders(
    new Headers({ "content-type": "text/event-stream", "set-cookie": "a=b", "content-encoding": "gzip" }),
    "sk-real",
    "placeholder",
  );
  assert.deepEqual([...h.keys()], ["content-type"]);
});

Deno.test("downstreamHeaders() never hands the real key back, in a redirect or an echo", () => {
  const h = downstreamHeaders(
    new Headers({ location: "https://api.example/v1/x?key=sk-real&y=1", "x-echo": "Bearer sk-real" }),
    "sk-real",
    "placeholder",
  );
  assert.equal(h.get("location"), "https://api.example/v1/x?key=placeholder&y=1");
  assert.equal(h.get("x-echo"), "Bearer placeholder");
});

Deno.test("netPermission() and basePath() read an upstream URL", () => {
  assert.equal(netPermission("https://api.example.com/v1"), "api.example.com:443");
  assert.equal(netPermission("http://127.0.0.1:4000/v1/"), "127.0.0.1:4000");
  assert.equal(basePath("http://127.0.0.1:4000/v1/"), "/v1");
  assert.equal(basePath("https://api.anthropic.com"), "");
});
