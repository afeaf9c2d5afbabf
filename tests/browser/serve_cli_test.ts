/** `spot serve`, `spot dashboard` and `spot monitor --list` through the real CLI, on runs the real loop made. */
import assert from "node:assert/strict";
import { join } from "node:path";
import { spawnProcess } from "../../sandbox/spawn.ts";
import { CLI, ROOT, spot, type SpotEnv, spotEnv } from "../helpers.ts";
import { demoScenario } from "../scenario.ts";

interface Served {
  url: string;
  port: number;
  stderr: string[];
  stop(): Promise<{ exitCode: number | null; stdout: string }>;
}

/** Starts `spot serve` and waits for the line that gives its URL. */
async function serve(env: SpotEnv, ...args: string[]): Promise<Served> {
  const stop = new AbortController();
  const stderr: string[] = [];
  let found: (url: string) => void;
  const listening = new Promise<string>((resolve) => found = resolve);
  const done = spawnProcess(
    [
      Deno.execPath(),
      "run",
      "--allow-all",
      "--no-prompt",
      "--config",
      join(ROOT, "deno.json"),
      CLI,
      "serve",
      ...args,
    ],
    {
      env: env.env,
      signal: stop.signal,
      onStderrLine: (line) => {
        stderr.push(line);
        const m = /on (http:\/\/\S+\/)/.exec(line);
        if (m) found(m[1]);
      },
    },
  );
  const url = await Promise.race([
    listening,
    done.then((r) => {
      throw new Error(`spot serve exited early (${r.exitCode}): ${r.stderr}`);
    }),
  ]);
  return {
    url,
    port: Number(new URL(url).port),
    stderr,
    async stop() {
      stop.abort();
      const r = await done;
      return { exitCode: r.exitCode, stdout: r.stdout };
    },
  };
}

/** A raw HTTP/1.1 request, so the Host header is exactly what the test says. */
async function rawGet(port: number, host: string, path = "/health"): Promise<string> {
  const conn = await Deno.connect({ hostname: "127.0.0.1", port });
  try {
    await conn.write(
      new TextEncoder().encode(`GET ${path} HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n\r\n`),
    );
    let out = "";
    const buf = new Uint8Array(4096);
    for (let n = await conn.read(buf); n !== null; n = await conn.read(buf)) {
      out += new TextDecoder().decode(buf.subarray(0, n));
    }
    return out;
  } finally {
    conn.close();
  }
}

function nonLoopbackAddress(): string | null {
  try {
    return Deno.networkInterfaces().find((i) => i.family === "IPv4" && !i.address.startsWith("127."))
      ?.address ?? null;
  } catch {
    return null;
  }
}

Deno.test("spot serve listens on 127.0.0.1 only, refuses a foreign Host header, and stops on SIGTERM", async () => {
  const env = await spotEnv();
  const server = await serve(env, "--port", "0", "--no-open");
  try {
    assert.match(server.url, /^http:\/\/127\.0\.0\.1:\d+\/$/);
    assert.match(await rawGet(server.port, `127.0.0.1:${server.port}`), /^HTTP\/1\.1 200/);
    const evil = await rawGet(server.port, `evil.example:${server.port}`);
    assert.match(evil, /^HTTP\/1\.1 403/);
    assert.match(evil, /HOST_REFUSED/);
    const lan = nonLoopbackAddress();
    if (lan) {
      await assert.rejects(Deno.connect({ hostname: lan, port: server.port }), `not reachable on ${lan}`);
    }
    assert.ok(!server.stderr.some((l) => l.includes("warning")));
  } finally {
    const end = await server.stop();
    assert.equal(end.exitCode, 143, "SIGTERM ends it like any interrupted verb");
    assert.equal(JSON.parse(end.stdout.trim()).stopped, true);
    await Deno.remove(env.dir, { recursive: true });
  }
});

Deno.test("spot serve on a non-loopback address says what that exposes", async () => {
  const env = await spotEnv();
  const server = await serve(env, "--host", "0.0.0.0", "--port", "0", "--no-open");
  try {
    assert.ok(server.stderr.some((l) => /warning: serving on 0\.0\.0\.0, not loopback/.test(l)));
  } finally {
    await server.stop();
    await Deno.remove(env.dir, { recursive: true });
  }
});

Deno.test("spot serve refuses a port that is not a number", async () => {
  const env = await spotEnv();
  const r = await spot(env, env.dir, "serve", "--port", "http", "--no-open");
  assert.equal(r.code, 2);
  assert.equal((r.json.error as { code: string }).code, "CLI_USAGE");
  await Deno.remove(env.dir, { recursive: true });
});

async function sha256(text: string): Promise<string> {
  const d = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
  return btoa(String.fromCharCode(...new Uint8Array(d)));
}

Deno.test("a run made by the real loop shows in spot list, spot monitor --list and the snapshot file", async () => {
  const env = await spotEnv();
  try {
    const sc = await demoScenario(env.dir);
    const prep = await spot(
      env,
      sc.repo,
      "prepare",
      "--task",
      sc.taskFile,
      "--profile",
      "replay",
      "--model",
      sc.episodeFile,
    );
    assert.equal(prep.code, 0, prep.stderr);
    const id = String(prep.json.runId);

    const listed = await spot(env, sc.repo, "monitor", "--list");
    assert.equal(listed.code, 0, listed.stderr);
    assert.deepEqual((listed.json.runs as { runId: string }[]).map((r) => r.runId), [id]);

    assert.equal((await spot(env, sc.repo, "run", "--id", id)).code, 0);
    assert.equal((await spot(env, sc.repo, "verify", "--id", id)).code, 0);
    const list = await spot(env, sc.repo, "list", "--running");
    assert.deepEqual(
      (list.json.runs as { runId: string; status: string }[]).map((r) => [r.runId, r.status]),
      [
        [id, "selfReviewing"],
      ],
    );

    const file = join(env.dir, "dash.html");
    const dash = await spot(env, sc.repo, "dashboard", "--output", file);
    assert.equal(dash.code, 0, dash.stderr);
    assert.equal(dash.json.output, file);
    const page = await Deno.readTextFile(file);
    for (
      const part of [id, "selfReviewing", "add_test.ts", "Reading add.ts; the operator is wrong.", "passed"]
    ) {
      assert.ok(page.includes(part), `snapshot shows ${part}`);
    }
    assert.doesNotMatch(page, /(src|href)="(https?:|\/\/|\/assets)/, "nothing is fetched from elsewhere");
    const csp = (/http-equiv="Content-Security-Policy" content="([^"]+)"/.exec(page)?.[1] ?? "").replaceAll(
      "&#39;",
      "'",
    );
    const script = /<script>([\s\S]*?)<\/script>/.exec(page)?.[1] ?? "";
    const style = /<style>([\s\S]*?)<\/style>/.exec(page)?.[1] ?? "";
    assert.ok(
      csp.includes(`script-src 'sha256-${await sha256(script)}'`),
      "the CSP allows exactly the inline script",
    );
    assert.ok(csp.includes(`style-src 'sha256-${await sha256(style)}'`), "and exactly the inline style");
    assert.equal(page.match(/<script/g)?.length, 1);
  } finally {
    await Deno.remove(env.dir, { recursive: true });
  }
});
