/** A client of spot's egress proxy step, speaking to its unix socket the way a bridge inside a sandbox does. */
const enc = new TextEncoder();
const dec = new TextDecoder();

/** One request through the proxy's socket; the whole answer as text. `then` is sent once a CONNECT is up. */
export async function through(socket: string, head: string, then = ""): Promise<string> {
  const conn = await Deno.connect({ transport: "unix", path: socket });
  await conn.write(enc.encode(head));
  let out = "";
  const buf = new Uint8Array(8192);
  for (;;) {
    const n = await conn.read(buf).catch(() => null);
    if (n === null) break;
    out += dec.decode(buf.subarray(0, n));
    if (then && out.includes("200 Connection Established\r\n\r\n")) {
      await conn.write(enc.encode(then));
      then = "";
    }
  }
  conn.close();
  return out;
}
