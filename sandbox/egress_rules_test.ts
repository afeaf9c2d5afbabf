import assert from "node:assert/strict";
import {
  ALLOW_ENTRY,
  allowed,
  decide,
  hostLocalAddress,
  parseProxyRequest,
  resolvedAllowed,
} from "./egress_rules.ts";

Deno.test("parseProxyRequest() reads CONNECT and absolute-form requests, and nothing else", () => {
  assert.deepEqual(parseProxyRequest("CONNECT registry.npmjs.org:443 HTTP/1.1"), {
    ok: true,
    target: { method: "CONNECT", host: "registry.npmjs.org", port: 443 },
  });
  assert.deepEqual(parseProxyRequest("GET http://127.0.0.1:4873/left-pad?x=1 HTTP/1.1"), {
    ok: true,
    target: { method: "GET", host: "127.0.0.1", port: 4873, originLine: "GET /left-pad?x=1 HTTP/1.1" },
  });
  assert.equal(parseProxyRequest("GET http://Example.org/ HTTP/1.1").ok && "ok", "ok");
  for (
    const bad of [
      "GET /relative HTTP/1.1",
      "GET https://x.org/ HTTP/1.1",
      "CONNECT x.org:99999 HTTP/1.1",
      "GET http://u:p@x.org/ HTTP/1.1",
      "hello",
      "CONNECT a b:1 HTTP/1.1",
    ]
  ) {
    assert.equal(parseProxyRequest(bad).ok, false, bad);
  }
});

Deno.test("allowed() matches host and port exactly", () => {
  const list = ["registry.npmjs.org:443", "127.0.0.1:4873"];
  assert.ok(allowed(list, "registry.npmjs.org", 443));
  assert.ok(!allowed(list, "registry.npmjs.org", 80), "the port is part of the rule");
  assert.ok(!allowed(list, "evil-registry.npmjs.org", 443));
  assert.ok(!allowed(list, "registry.npmjs.org.evil.com", 443));
  assert.ok(allowed(list, "127.0.0.1", 4873));
  assert.ok(!allowed(list, "127.0.0.2", 4873));
  assert.ok(
    ALLOW_ENTRY.test("pypi.org:443") && !ALLOW_ENTRY.test("*.pypi.org:443") && !ALLOW_ENTRY.test("pypi.org"),
  );
});

Deno.test("allowed(): *.domain:port covers the domain and every name under it, on that port only", () => {
  const list = ["*.wikipedia.org:443"];
  assert.ok(allowed(list, "en.wikipedia.org", 443));
  assert.ok(allowed(list, "a.b.wikipedia.org", 443));
  assert.ok(allowed(list, "wikipedia.org", 443), "as Deno's --allow-net reads the same entry");
  assert.ok(allowed(list, "EN.Wikipedia.ORG", 443));
  assert.ok(!allowed(list, "en.wikipedia.org", 80));
  assert.ok(!allowed(list, "wikipedia.org.evil.com", 443));
  assert.ok(!allowed(list, "evilwikipedia.org", 443));
});

Deno.test("decide(): the forwarder's inside address goes to the provider route, before any allowlist", () => {
  const provider = { host: "127.0.0.1", port: 18765 };
  assert.equal(decide({ host: "127.0.0.1", port: 18765 }, [], provider), "provider");
  // Listed or not, the host's own 127.0.0.1:18765 is never the destination.
  assert.equal(decide({ host: "127.0.0.1", port: 18765 }, ["127.0.0.1:18765"], provider), "provider");
  assert.equal(decide({ host: "127.0.0.1", port: 18766 }, [], provider), "refused");
  assert.equal(decide({ host: "127.0.0.1", port: 8080 }, [], provider), "refused");
  assert.equal(decide({ host: "127.0.0.1", port: 8080 }, ["127.0.0.1:8080"], provider), "allowed");
  assert.equal(decide({ host: "localhost", port: 18765 }, [], provider), "refused", "exactly the address");
  // Without a route (an allowlist-mode proxy) the address is an ordinary host:port.
  assert.equal(decide({ host: "127.0.0.1", port: 18765 }, [], undefined), "refused");
  assert.equal(decide({ host: "127.0.0.1", port: 18765 }, ["127.0.0.1:18765"]), "allowed");
});

Deno.test("hostLocalAddress() knows loopback, link-local and unspecified addresses, v4 and v6; not private networks", () => {
  for (
    const ip of [
      "127.0.0.1",
      "127.9.9.9",
      "169.254.169.254",
      "0.0.0.0",
      "::1",
      "::",
      "fe80::1",
      "::ffff:127.0.0.1",
    ]
  ) assert.equal(hostLocalAddress(ip), true, ip);
  // Internal registries and model servers live on private networks, by name.
  for (const ip of ["10.1.2.3", "172.16.0.1", "192.168.1.1", "fd00::1", "8.8.8.8", "2606:4700::1111"]) {
    assert.equal(hostLocalAddress(ip), false, ip);
  }
});

Deno.test("resolvedAllowed(): a listed name that leads to the host itself is refused; a listed address is not", () => {
  // DNS rebinding, or a wildcard-DNS name under a `*.` entry: the name was listed, 127.0.0.1 was not.
  assert.equal(resolvedAllowed("docs.example.com", "127.0.0.1"), false);
  assert.equal(resolvedAllowed("metadata.example.com", "169.254.169.254"), false);
  assert.equal(resolvedAllowed("docs.example.com", "93.184.216.34"), true);
  assert.equal(resolvedAllowed("registry.corp", "10.0.0.7"), true);
  // Written as the address (or localhost): what was listed is where it goes.
  assert.equal(resolvedAllowed("127.0.0.1", "127.0.0.1"), true);
  assert.equal(resolvedAllowed("localhost", "127.0.0.1"), true);
  assert.equal(resolvedAllowed("::1", "::1"), true);
});
