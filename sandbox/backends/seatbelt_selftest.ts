/**
 * Before spot trusts Seatbelt on a Mac it attacks it there, once: the probes of the Linux adversarial suite,
 * run under the exact profile spot would generate, each judged from the host. Reads outside the grants,
 * writes outside the worktree (directly, through a symlink, through a hard link of a read-only file, into a
 * locked file), the network except the forwarder (another loopback port, another unix socket), and a signal
 * to a process outside the sandbox must all fail; and four controls must succeed, so a sandbox that breaks
 * everything cannot pass: a command runs, a granted file reads, the worktree takes a write, and bytes reach
 * the forwarder's socket through the bridge.
 *
 * The sandbox is reached only through `SelfTestRunner`, so the same probes run here on Linux under bwrap
 * (they must pass) and under no sandbox at all (they must fail), which is how they are tested.
 */
import { join } from "../../base/path.ts";
import { DEFAULT_LIMITS, type SandboxPolicy } from "../sandbox_policy.ts";
import type { ProcessResult } from "../spawn.ts";
import type { SystemView } from "../host_paths.ts";
import type { ProbeOutcome, SelfTestReport } from "./seatbelt_result.ts";

export type { ProbeOutcome, SelfTestReport } from "./seatbelt_result.ts";

export interface SelfTestRunner {
  /** Runs `argv` under `policy` the way the backend under test would, and returns when it has ended. */
  run(policy: SandboxPolicy, argv: string[], options: { timeoutMs: number }): Promise<ProcessResult>;
}

export interface SelfTestOptions {
  /** An empty directory to build the lab in (short: unix socket paths are capped near 100 bytes). */
  labRoot: string;
  /** The deno binary: it runs the bridge and the network client inside. */
  deno: string;
  /** Host path of `sandbox/bridge.ts`. */
  bridgeScript: string;
  /** Absolute path of a POSIX shell. */
  shell: string;
  /** System paths to show read-only (on macOS the profile adds its own). */
  system: SystemView;
  /** The loopback port the forwarder's bridge serves inside (BRIDGE_PORT). */
  forwarderPort: number;
  /** Per probe. */
  timeoutMs?: number;
}

/** The lab's layout, relative to its root. */
export const LAB = {
  worktree: "wt",
  grant: "grant",
  outside: "outside",
  home: "home",
  scratch: "scratch",
  forwarder: "fwd.sock",
  otherSocket: "other.sock",
} as const;

/** Connects, sends the token, waits for the listener's answer; run by deno inside the sandbox. */
const CLIENT = `const [transport, target, port, token] = Deno.args;
try {
  const conn = transport === "unix"
    ? await Deno.connect({ transport: "unix", path: target })
    : await Deno.connect({ hostname: target, port: Number(port) });
  await conn.write(new TextEncoder().encode(token + "\\n"));
  await conn.read(new Uint8Array(16)).catch(() => null);
  conn.close();
  console.log("connected");
} catch (error) {
  console.log("refused: " + (error instanceof Error ? error.message : String(error)));
  Deno.exit(3);
}
`;

/** A listener that keeps every line it is sent and answers each connection once. */
function record(listener: Deno.Listener): { lines: string[]; done: Promise<void> } {
  const lines: string[] = [];
  const serve = async (conn: Deno.Conn) => {
    const buf = new Uint8Array(256);
    const n = await conn.read(buf).catch(() => null);
    if (n) lines.push(new TextDecoder().decode(buf.subarray(0, n)).trim());
    await conn.write(new TextEncoder().encode("ok\n")).catch(() => 0);
    conn.close();
  };
  const done = (async () => {
    for await (const conn of listener) void serve(conn).catch(() => {});
  })().catch(() => {});
  return { lines, done };
}

const readOr = (path: string) => Deno.readTextFile(path).catch(() => null);

/** Runs every probe under `runner` in a fresh lab; the lab is removed afterwards. */
export async function runSelfTest(runner: SelfTestRunner, options: SelfTestOptions): Promise<SelfTestReport> {
  const at = (name: string) => join(options.labRoot, name);
  const [wt, grant, outside, home] = [LAB.worktree, LAB.grant, LAB.outside, LAB.home].map(at);
  for (const dir of [wt, grant, outside, home, at(LAB.scratch)]) await Deno.mkdir(dir, { recursive: true });
  const token = `spot-selftest-${crypto.randomUUID()}`;
  const canary = `CANARY_${crypto.randomUUID().replaceAll("-", "")}`;
  await Deno.writeTextFile(join(grant, "token.txt"), token);
  await Deno.writeTextFile(join(grant, "target.txt"), "original\n");
  await Deno.writeTextFile(join(grant, "client.ts"), CLIENT);
  await Deno.writeTextFile(join(outside, "secret.txt"), canary);
  await Deno.writeTextFile(join(wt, "locked.txt"), "locked\n");
  const forwarder = Deno.listen({ transport: "unix", path: at(LAB.forwarder) });
  const otherSocket = Deno.listen({ transport: "unix", path: at(LAB.otherSocket) });
  const otherPort = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const seen = { forwarder: record(forwarder), socket: record(otherSocket), port: record(otherPort) };
  const policy: SandboxPolicy = {
    cwd: wt,
    readOnly: [...options.system.readOnly, grant, options.deno],
    symlinks: options.system.symlinks,
    writable: [wt],
    protected: [join(wt, "locked.txt")],
    binds: [],
    scratch: [{ path: "/tmp", sizeBytes: 64 * 1024 ** 2 }, { path: home, sizeBytes: 256 * 1024 ** 2 }],
    env: { PATH: "/usr/bin:/bin", HOME: home, TMPDIR: "/tmp", DENO_NO_UPDATE_CHECK: "1" },
    network: {
      mode: "forwarder",
      hostSocket: at(LAB.forwarder),
      deno: options.deno,
      bridgeScript: options.bridgeScript,
    },
    limits: { ...DEFAULT_LIMITS, prlimit: null },
    shell: options.shell,
  };
  const sh = (script: string) => [options.shell, "-c", script];
  const client = (...args: string[]) => [
    options.deno,
    "run",
    "--no-prompt",
    "--no-config",
    "--no-lock",
    "-A",
    join(grant, "client.ts"),
    ...args,
  ];
  const timeoutMs = options.timeoutMs ?? 30_000;
  const outcomes: ProbeOutcome[] = [];
  const probe = async (
    id: string,
    kind: ProbeOutcome["kind"],
    argv: string[],
    judge: (r: ProcessResult) => Promise<[boolean, string]> | [boolean, string],
  ) => {
    const r = await runner.run(policy, argv, { timeoutMs });
    const [ok, detail] = await judge(r);
    const how = r.timedOut ? "timed out" : `exit ${r.exitCode ?? r.signal}`;
    outcomes.push({
      id,
      kind,
      ok,
      detail: ok ? detail : `${detail} (${how}${r.stderr ? `: ${r.stderr.trim().slice(0, 200)}` : ""})`,
    });
  };
  try {
    await probe(
      "control:run",
      "control",
      sh(`echo ${token}`),
      (r) => [r.stdout.includes(token), "a command runs"],
    );
    // Where nothing runs, every attack would look contained: there is nothing more to learn.
    if (!outcomes[0].ok) return { passed: false, failed: outcomes, outcomes };
    await probe("control:read-grant", "control", sh(`cat '${join(grant, "token.txt")}'`), (r) => [
      r.stdout.includes(token),
      "a granted file reads",
    ]);
    await probe(
      "control:write-worktree",
      "control",
      sh(`echo ${token} > '${join(wt, "made.txt")}'`),
      async () => [
        (await readOr(join(wt, "made.txt")))?.includes(token) ?? false,
        "the worktree takes a write",
      ],
    );
    await probe(
      "control:forwarder",
      "control",
      client("tcp", "127.0.0.1", String(options.forwarderPort), token),
      () => [
        seen.forwarder.lines.includes(token),
        "bytes reach the forwarder's socket through the bridge",
      ],
    );
    await probe("read:outside", "contained", sh(`cat '${join(outside, "secret.txt")}'`), (r) => [
      !r.stdout.includes(canary),
      r.stdout.includes(canary)
        ? "a file outside the grants was read"
        : "a file outside the grants stays unread",
    ]);
    const escape = join(outside, "escape.txt");
    await probe("write:outside", "contained", sh(`echo ${token} > '${escape}'`), async () => {
      const landed = (await readOr(escape)) !== null;
      return [
        !landed,
        landed ? `a file was written outside the worktree (${escape})` : "nothing is written outside",
      ];
    });
    const locked = join(wt, "locked.txt");
    await probe("write:locked", "contained", sh(`echo ${token} >> '${locked}'`), async () => {
      const landed = (await readOr(locked)) !== "locked\n";
      return [
        !landed,
        landed ? "a locked file in the worktree was changed" : "a locked file stays as it was",
      ];
    });
    const linked = join(outside, "linked.txt");
    await probe(
      "write:symlink",
      "contained",
      sh(`ln -s '${linked}' '${join(wt, "link")}'; echo ${token} > '${join(wt, "link")}'`),
      async () => {
        const landed = (await readOr(linked)) !== null;
        return [
          !landed,
          landed ? "a symlink in the worktree wrote outside it" : "a symlink cannot carry a write out",
        ];
      },
    );
    const target = join(grant, "target.txt");
    await probe(
      "write:hardlink",
      "contained",
      sh(`ln '${target}' '${join(wt, "hard")}'; echo ${token} >> '${join(wt, "hard")}'`),
      async () => {
        const landed = (await readOr(target)) !== "original\n";
        return [
          !landed,
          landed ? "a hard link changed a read-only file" : "a hard link cannot change a read-only file",
        ];
      },
    );
    const port = (otherPort.addr as Deno.NetAddr).port;
    await probe("net:other-port", "contained", client("tcp", "127.0.0.1", String(port), token), () => {
      const landed = seen.port.lines.includes(token);
      return [
        !landed,
        landed ? `a loopback port other than the forwarder's was reached (${port})` : "other ports stay shut",
      ];
    });
    await probe("net:unix-socket", "contained", client("unix", at(LAB.otherSocket), "0", token), () => {
      const landed = seen.socket.lines.includes(token);
      return [
        !landed,
        landed ? "a unix socket other than the forwarder's was reached" : "other sockets stay shut",
      ];
    });
    await probe(
      "proc:signal-outside",
      "contained",
      sh(`kill -0 ${Deno.pid} && echo signalled-${token}`),
      (r) => {
        const landed = r.stdout.includes(`signalled-${token}`);
        return [
          !landed,
          landed ? "a process outside the sandbox took a signal" : "processes outside take no signal",
        ];
      },
    );
  } finally {
    for (const l of [forwarder, otherSocket, otherPort]) l.close();
    await Promise.all(Object.values(seen).map((s) => s.done));
    await Deno.remove(options.labRoot, { recursive: true }).catch(() => {});
  }
  const failed = outcomes.filter((o) => !o.ok);
  return { passed: failed.length === 0, failed, outcomes };
}
