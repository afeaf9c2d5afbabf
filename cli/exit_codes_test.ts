import assert from "node:assert/strict";
import { ERROR_CODES, type ErrorCode } from "../errors.ts";
import { exitCodeFor, exitStyle, exitStyleFromEnv, signalExitFor } from "./exit_codes.ts";

const codes = Object.entries(ERROR_CODES) as [ErrorCode, number][];

Deno.test("exitCodeFor() keeps spot's codes, and gives the original's 2 for usage and 1 for the rest", () => {
  for (const [code, exit] of codes) assert.equal(exitCodeFor(code, exit, "spot"), exit, code);
  const original = Object.fromEntries(
    codes.map(([code, exit]) => [code, exitCodeFor(code, exit, "pi-worker")]),
  );
  assert.equal(original.CLI_USAGE, 2);
  assert.equal(original.CANCELLED, 130, "a cancelled picker is an interrupt in both");
  const others = codes.filter(([c]) => c !== "CLI_USAGE" && c !== "CANCELLED").map(([c]) => original[c]);
  assert.deepEqual([...new Set(others)], [1]);
});

Deno.test("signalExitFor() says which signal, except where the original kept a failed command's 1", () => {
  assert.equal(signalExitFor(130, 0, "spot"), 130);
  assert.equal(signalExitFor(130, 3, "spot"), 130);
  assert.equal(signalExitFor(143, 0, "pi-worker"), 143);
  assert.equal(signalExitFor(143, 1, "pi-worker"), 1);
});

Deno.test("exitStyleFromEnv() reads SPOT_EXIT_CODES and refuses a value it does not know", () => {
  assert.equal(exitStyleFromEnv(() => undefined), null);
  assert.equal(exitStyleFromEnv(() => ""), null);
  assert.equal(exitStyleFromEnv(() => "pi-worker"), "pi-worker");
  assert.throws(
    () => exitStyleFromEnv(() => "pi_worker"),
    /SPOT_EXIT_CODES="pi_worker": expected spot or pi-worker/,
  );
});

Deno.test("exitStyle() prefers the environment, then the config's exitCodes, read even from a broken JSONC file", async () => {
  const dir = await Deno.makeTempDir();
  const file = `${dir}/config.json`;
  const env = (extra: Record<string, string>) => (n: string) =>
    ({ PI_WORKER_CONFIG: file, HOME: dir, ...extra })[n];
  assert.equal(await exitStyle(env({})), "spot", "no config file");
  await Deno.writeTextFile(
    file,
    '{\n  // the parent was written for pi-worker\n  "exitCodes": "pi-worker",\n  "bogus": 1,\n}\n',
  );
  assert.equal(await exitStyle(env({})), "pi-worker");
  assert.equal(await exitStyle(env({ SPOT_EXIT_CODES: "spot" })), "spot");
  await Deno.writeTextFile(file, '{"exitCodes": "pi_worker"}');
  assert.equal(await exitStyle(env({})), "spot", "an unknown value in the file keeps spot's codes");
  await Deno.remove(dir, { recursive: true });
});
