import assert from "node:assert/strict";
import { checkRequest, hostAllowed, splitHost } from "./guard.ts";

const LOOP = { hostname: "127.0.0.1", port: 7317 };

function req(method: string, headers: Record<string, string>) {
  return { method, url: "http://127.0.0.1:7317/", headers: new Headers(headers) };
}

Deno.test("hostAllowed() accepts loopback names on the bound port and refuses any other name", () => {
  for (const host of ["127.0.0.1:7317", "localhost:7317", "[::1]:7317", "LOCALHOST:7317"]) {
    assert.equal(hostAllowed(host, LOOP), true, host);
  }
  for (
    const host of [
      "evil.example:7317",
      "127.0.0.1:7318",
      "127.0.0.1",
      "127.0.0.1.evil.example:7317",
      "",
      "a:b:c",
    ]
  ) {
    assert.equal(hostAllowed(host, LOOP), false, host);
  }
});

Deno.test("a wildcard bind accepts IP literals, which DNS rebinding cannot forge, and no names", () => {
  const any = { hostname: "0.0.0.0", port: 80 };
  assert.equal(hostAllowed("192.168.1.20", any), true);
  assert.equal(hostAllowed("[fe80::1]:80", any), true);
  assert.equal(hostAllowed("rebind.evil.example", any), false);
  const named = { hostname: "box.lan", port: 9000 };
  assert.equal(hostAllowed("box.lan:9000", named), true);
  assert.equal(hostAllowed("other.lan:9000", named), false);
});

Deno.test("splitHost() reads names, IPv6 literals and ports", () => {
  assert.deepEqual(splitHost("[::1]:80"), { name: "[::1]", port: 80 });
  assert.deepEqual(splitHost("Example.org"), { name: "example.org", port: null });
  assert.equal(splitHost("a b:1"), null);
});

Deno.test("checkRequest() wants the CSRF token on a POST and nothing more on a same-origin GET", () => {
  const o = { binding: LOOP, csrfToken: "t0k" };
  assert.deepEqual(checkRequest(req("GET", { host: "127.0.0.1:7317" }), o), { ok: true });
  const post = checkRequest(req("POST", { host: "127.0.0.1:7317", origin: "http://127.0.0.1:7317" }), o);
  assert.equal(post.ok || post.code, "CSRF_REFUSED");
  const good = checkRequest(req("POST", { host: "127.0.0.1:7317", "x-spot-csrf": "t0k" }), o);
  assert.equal(good.ok, true);
  const evil = checkRequest(
    req("POST", { host: "127.0.0.1:7317", origin: "http://evil.example", "x-spot-csrf": "t0k" }),
    o,
  );
  assert.equal(evil.ok || evil.code, "ORIGIN_REFUSED");
  const nullOrigin = checkRequest(req("GET", { host: "127.0.0.1:7317", origin: "null" }), o);
  assert.equal(nullOrigin.ok, false);
});
