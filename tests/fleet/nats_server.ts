/**
 * A loopback `nats-server` with JetStream on, its own store dir and a free port, started and stopped by the test
 * (by its pid). `restart` stops it and starts it again on the same port and store, as an operator's restart would.
 */
import { join } from "node:path";
import { type ProcessResult, spawnProcess } from "../../sandbox/spawn.ts";

const BINARY = ["/usr/sbin/nats-server", "/usr/bin/nats-server", "/usr/local/bin/nats-server"];

export interface NatsServer {
  url: string;
  port: number;
  storeDir: string;
  pid(): number;
  restart(options?: { downMs?: number }): Promise<void>;
  stop(): Promise<void>;
}

async function binary(): Promise<string> {
  for (const b of BINARY) if (await Deno.stat(b).then(() => true, () => false)) return b;
  throw new Error("nats-server is not installed (tests/setup.sh installs the Debian package)");
}

function freePort(): number {
  const l = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (l.addr as Deno.NetAddr).port;
  l.close();
  return port;
}

async function listening(port: number, ms: number): Promise<void> {
  const until = Date.now() + ms;
  for (;;) {
    try {
      (await Deno.connect({ hostname: "127.0.0.1", port })).close();
      return;
    } catch {
      if (Date.now() > until) throw new Error(`nats-server did not listen on ${port} within ${ms} ms`);
      await new Promise((r) => setTimeout(r, 50));
    }
  }
}

/** How long a signalled process may take to exit before it is killed (-9): a stop never hangs a test. */
export const STOP_GRACE_MS = 15_000;

/** Signals `pid` and waits for `done`; SIGKILL once `STOP_GRACE_MS` passed. */
export async function ended<T>(pid: number, done: Promise<T>, signal: Deno.Signal): Promise<T> {
  const send = (s: Deno.Signal) => {
    try {
      Deno.kill(pid, s);
    } catch {
      // gone already
    }
  };
  // A process already gone is not signalled: its pid may be another's by now.
  const over = await Promise.race([
    done.then(() => true, () => true),
    new Promise((r) => setTimeout(r, 0, false)),
  ]);
  if (over) return await done;
  send(signal);
  const timer = setTimeout(() => send("SIGKILL"), STOP_GRACE_MS);
  try {
    return await done;
  } finally {
    clearTimeout(timer);
  }
}

export async function startNats(): Promise<NatsServer> {
  const bin = await binary();
  const dir = await Deno.makeTempDir({ prefix: "spot-nats-" });
  const storeDir = join(dir, "store");
  const port = freePort();
  let pid = 0;
  let done: Promise<ProcessResult> = Promise.resolve({} as ProcessResult);
  const launch = async () => {
    let started: (pid: number) => void = () => {};
    const spawned = new Promise<number>((r) => started = r);
    done = spawnProcess([bin, "-js", "-sd", storeDir, "-a", "127.0.0.1", "-p", String(port)], {
      env: { PATH: "/usr/bin:/bin" },
      onSpawn: started,
      maxOutputChars: 100_000,
    });
    pid = await spawned;
    await listening(port, 10_000);
  };
  const stop = async () => {
    await ended(pid, done, "SIGTERM");
  };
  await launch();
  return {
    url: `nats://127.0.0.1:${port}`,
    port,
    storeDir,
    pid: () => pid,
    restart: async (options = {}) => {
      await stop();
      await new Promise((r) => setTimeout(r, options.downMs ?? 0));
      await launch();
    },
    stop,
  };
}
