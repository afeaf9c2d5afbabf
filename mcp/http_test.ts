import assert from "node:assert/strict";
import { guard } from "./http.ts";

const PORT = 7318;
const at = (headers: Record<string, string>) =>
  new Request(`http://127.0.0.1:${PORT}/mcp`, { method: "POST", headers });

async function refusal(req: Request, token?: string): Promise<{ status: number; message: string } | null> {
  const r = guard(req, PORT, token);
  if (!r) return null;
  const body = await r.json() as { error: { message: string } };
  return { status: r.status, message: body.error.message };
}

Deno.test("guard: this server's loopback Host passes; any other name, port or a missing Host is refused", async () => {
  for (const host of [`127.0.0.1:${PORT}`, `localhost:${PORT}`, `[::1]:${PORT}`, `LOCALHOST:${PORT}`]) {
    assert.equal(await refusal(at({ host })), null, host);
  }
  for (
    const host of [
      `evil.example:${PORT}`,
      "127.0.0.1",
      `127.0.0.1:${PORT + 1}`,
      `127.0.0.1:${PORT}.evil.example`,
      `localhost:${PORT}@evil.example`,
      `127.0.0.2:${PORT}`,
      "",
    ]
  ) {
    const r = await refusal(at({ host }));
    assert.equal(r?.status, 403, `Host "${host}" was let through`);
    assert.match(r!.message, /^Refused Host/);
  }
});

Deno.test("guard: no Origin or this server's own passes; a page elsewhere, https or null is refused", async () => {
  const host = `localhost:${PORT}`;
  assert.equal(await refusal(at({ host, origin: `http://localhost:${PORT}` })), null);
  assert.equal(await refusal(at({ host, origin: `http://127.0.0.1:${PORT}` })), null);
  for (
    const origin of [
      "http://evil.example",
      `http://evil.example:${PORT}`,
      `https://localhost:${PORT}`,
      `http://localhost:${PORT + 1}`,
      "null",
    ]
  ) {
    const r = await refusal(at({ host, origin }));
    assert.equal(r?.status, 403, `Origin "${origin}" was let through`);
    assert.match(r!.message, /^Refused Origin/);
  }
});

Deno.test("guard: with a token, only `Authorization: Bearer <token>` passes, and a refusal says Bearer", async () => {
  const host = `127.0.0.1:${PORT}`;
  const token = "s3cret-token";
  assert.equal(await refusal(at({ host, authorization: `Bearer ${token}` }), token), null);
  for (
    const authorization of [undefined, "", `Bearer ${token}x`, `Bearer s3cret-toke`, `bearer ${token}`, token]
  ) {
    const headers: Record<string, string> = { host };
    if (authorization !== undefined) headers.authorization = authorization;
    const r = guard(at(headers), PORT, token);
    assert.equal(r?.status, 401, `Authorization "${authorization}" was let through`);
    assert.equal(r!.headers.get("www-authenticate"), "Bearer");
  }
  // The Host check comes first: a right token from a rebinding page is still refused.
  assert.equal(
    (await refusal(at({ host: "evil.example", authorization: `Bearer ${token}` }), token))?.status,
    403,
  );
});
