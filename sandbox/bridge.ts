/**
 * Runs inside the sandbox: listens on 127.0.0.1:PORT (the sandbox's own
 * loopback) and carries each connection, byte for byte, to the provider
 * forwarder's unix socket, the only way out. It decides nothing; the
 * forwarder on the host checks every request.
 * Usage: bridge.ts PORT SOCKET READY_FILE
 */
export {};

const [portText, socket, readyFile] = Deno.args;
const listener = Deno.listen({ hostname: "127.0.0.1", port: Number(portText) });
await Deno.writeTextFile(readyFile, String(Deno.pid));

async function carry(client: Deno.Conn): Promise<void> {
  let upstream: Deno.UnixConn;
  try {
    upstream = await Deno.connect({ transport: "unix", path: socket });
  } catch {
    client.close();
    return;
  }
  // The client finishing its request half-closes toward the forwarder; the forwarder closing ends both.
  void client.readable.pipeTo(upstream.writable, { preventClose: true })
    .then(() => upstream.closeWrite()).catch(() => {});
  await upstream.readable.pipeTo(client.writable).catch(() => {});
  for (const c of [client, upstream]) {
    try {
      c.close();
    } catch {
      // already closed by pipeTo
    }
  }
}

for await (const conn of listener) void carry(conn);
