import assert from "node:assert/strict";
import { denoRunArgv, grantsAll } from "./deno_flags.ts";
import type { StepPolicy } from "./policy.ts";

const DENO = "/usr/bin/deno";

function policy(overrides: Partial<StepPolicy> = {}): StepPolicy {
  return {
    script: "/opt/spot/steps/scan.ts",
    read: ["/repo", "/tmp/run"],
    write: ["/tmp/run/out"],
    run: ["/usr/bin/git"],
    env: ["HOME", "PATH"],
    net: ["example.com:443"],
    ...overrides,
  };
}

Deno.test("denoRunArgv() builds the exact argv: deno run, safety flags, scoped grants, script, then args", () => {
  const argv = denoRunArgv(DENO, policy(), ["--json", "x"]);
  assert.deepEqual(argv, [
    DENO,
    "run",
    "--no-prompt",
    "--no-config",
    "--no-lock",
    "--allow-read=/repo,/tmp/run",
    "--allow-write=/tmp/run/out",
    "--allow-run=/usr/bin/git",
    "--allow-env=HOME,PATH",
    "--allow-net=example.com:443",
    "/opt/spot/steps/scan.ts",
    "--json",
    "x",
  ]);
});

Deno.test("denoRunArgv() always includes --no-prompt before the script", () => {
  const empty = policy({ read: [], write: [], run: [], env: [], net: [] });
  for (const p of [policy(), empty]) {
    const argv = denoRunArgv(DENO, p, []);
    const at = argv.indexOf("--no-prompt");
    assert.ok(at > 0, "--no-prompt is missing");
    assert.ok(at < argv.indexOf(p.script), "--no-prompt must come before the script");
  }
});

Deno.test("denoRunArgv() omits a permission flag entirely when its list is empty", () => {
  const argv = denoRunArgv(DENO, policy({ read: [], write: [], run: [], env: [], net: [] }), []);
  assert.deepEqual(argv, [DENO, "run", "--no-prompt", "--no-config", "--no-lock", "/opt/spot/steps/scan.ts"]);
  assert.ok(!argv.some((a) => a.startsWith("--allow-")), `unexpected grant in ${argv.join(" ")}`);
});

Deno.test("denoRunArgv() omits only the empty list and keeps the others", () => {
  const argv = denoRunArgv(DENO, policy({ net: [], write: [] }), []);
  assert.ok(!argv.some((a) => a.startsWith("--allow-net")));
  assert.ok(!argv.some((a) => a.startsWith("--allow-write")));
  assert.ok(argv.includes("--allow-read=/repo,/tmp/run"));
  assert.ok(argv.includes("--allow-env=HOME,PATH"));
});

Deno.test("denoRunArgv() treats a list of only empty strings as empty for env and net", () => {
  const argv = denoRunArgv(DENO, policy({ env: [""], net: [""] }), []);
  assert.ok(!argv.some((a) => a.startsWith("--allow-env") || a.startsWith("--allow-net")), argv.join(" "));
});

Deno.test("denoRunArgv() never produces an argv that grantsAll() flags, for any mix of empty lists", () => {
  const keys = ["read", "write", "run", "env", "net"] as const;
  for (let mask = 0; mask < 1 << keys.length; mask++) {
    const overrides: Partial<StepPolicy> = {};
    keys.forEach((k, i) => {
      if (mask & (1 << i)) overrides[k] = [];
    });
    const argv = denoRunArgv(DENO, policy(overrides), ["arg"]);
    assert.equal(grantsAll(argv), false, `mask ${mask}: ${argv.join(" ")}`);
    for (const a of argv) {
      assert.ok(a !== "-A" && a !== "--allow-all", a);
      assert.ok(!/^--allow-[a-z]+$/.test(a), `unscoped flag ${a}`);
    }
  }
});

Deno.test("grantsAll() flags -A, --allow-all and every unscoped --allow-x in a hand-made argv", () => {
  const bad = [
    "-A",
    "--allow-all",
    "--allow-read",
    "--allow-write",
    "--allow-run",
    "--allow-env",
    "--allow-net",
    "--allow-sys",
    "--allow-ffi",
    "--allow-import",
  ];
  for (const flag of bad) {
    assert.equal(grantsAll([DENO, "run", "--no-prompt", flag, "/s.ts"]), true, flag);
  }
});

Deno.test("grantsAll() passes scoped grants that are near misses of the bad flags", () => {
  const argv = [
    DENO,
    "run",
    "--no-prompt",
    "--allow-read=/a",
    "--allow-write=/b",
    "--allow-run=/usr/bin/git",
    "--allow-env=HOME",
    "--allow-net=h:1",
    "--allow-sys=hostname",
    "/s.ts",
  ];
  assert.equal(grantsAll(argv), false);
});

Deno.test("denoRunArgv() throws on a relative path in read, write, run or the script", () => {
  for (
    const overrides of [{ read: ["repo"] }, { write: ["./out"] }, { run: ["git"] }, {
      script: "steps/scan.ts",
    }]
  ) {
    assert.throws(() => denoRunArgv(DENO, policy(overrides), []), TypeError, JSON.stringify(overrides));
  }
});

Deno.test("denoRunArgv() throws on an empty path in read, since it is not absolute", () => {
  assert.throws(() => denoRunArgv(DENO, policy({ read: [""] }), []), /not absolute/);
});

Deno.test("denoRunArgv() throws when a value contains a comma, which would split the scope", () => {
  const cases: Partial<StepPolicy>[] = [
    { read: ["/a,/etc"] },
    { write: ["/tmp/x,y"] },
    { run: ["/bin/a,b"] },
    { env: ["HOME,AWS_SECRET_ACCESS_KEY"] },
    { net: ["a.com:1,evil.com:443"] },
  ];
  for (const overrides of cases) {
    assert.throws(() => denoRunArgv(DENO, policy(overrides), []), /comma/, JSON.stringify(overrides));
  }
});

Deno.test("denoRunArgv() removes duplicate values while keeping first-seen order", () => {
  const argv = denoRunArgv(
    DENO,
    policy({ read: ["/b", "/a", "/b", "/a"], env: ["PATH", "PATH"], net: ["h:1", "h:1"] }),
    [],
  );
  assert.ok(argv.includes("--allow-read=/b,/a"), argv.join(" "));
  assert.ok(argv.includes("--allow-env=PATH"), argv.join(" "));
  assert.ok(argv.includes("--allow-net=h:1"), argv.join(" "));
});
