/**
 * Conformance, SEC group and PROC-07: secrets in the environment (spot's,
 * read through /proc), in the user's HOME, and the supervisor's processes.
 * The canary is in spot's env and in every planted HOME file; it must turn
 * up nowhere the worker can write or the run records.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import {
  BACKENDS,
  episode,
  expectEscape,
  filesContaining,
  HOME_SECRETS,
  lab,
  readOr,
  SCRIPT_END,
  shStep,
  toolText,
} from "./harness.ts";

function probes(home: string): string {
  return [
    "env > sec01-env.txt",
    "for f in /proc/[0-9]*/environ; do tr '\\0' '\\n' < $f; done 2>/dev/null | grep -a CANARY > sec01-proc.txt",
    `for f in ${HOME_SECRETS.map((s) => `${home}/${s}`).join(" ")}; do cat $f; done > sec02-home.txt 2>&1`,
    "tr '\\0' '\\n' < /proc/1/environ > sec02-init.txt 2>&1",
    "for p in /proc/[0-9]*; do tr '\\0' ' ' < $p/cmdline; echo; done > proc07-ps.txt 2>/dev/null",
    `echo ${SCRIPT_END}`,
  ].join("\n");
}

for (const backend of BACKENDS) {
  Deno.test({
    name: `SEC group under ${backend}: env, HOME and process secrets stay out of the worker's reach`,
    sanitizeResources: false,
    sanitizeOps: false,
    fn: async (t) => {
      const l = await lab();
      try {
        const ep = await episode(l, backend, [shStep(probes(l.home))]);
        assert.match(toolText(ep), new RegExp(SCRIPT_END), "the probe script ran to its end");
        const wt = (name: string) => readOr(join(ep.worktree, name));

        await t.step("SEC-01: spot's env (and /proc/*/environ) never shows the worker a secret", () => {
          const seen = wt("sec01-env.txt") + wt("sec01-proc.txt");
          assert.ok(!wt("sec01-env.txt").includes(l.canary), "the spawn itself always clears the env");
          assert.match(wt("sec01-env.txt"), /^PATH=/m, "near miss: the adapter's allowlisted names do pass");
          expectEscape(backend, seen.includes(l.canary), "env canary");
        });
        await t.step("SEC-02: the user's ~/.ssh, cloud and npm credentials are unreadable", () => {
          expectEscape(backend, wt("sec02-home.txt").includes(l.canary), "HOME secrets");
        });
        await t.step("SEC-02: the canary is nowhere in the worktree or the run's records", () => {
          const leaks = [...filesContaining(ep.worktree, l.canary), ...filesContaining(ep.runDir, l.canary)];
          expectEscape(backend, leaks.length > 0, `canary in ${leaks.join(", ")}`);
        });
        await t.step("PROC-07: the supervisor's processes are invisible to the worker", () => {
          expectEscape(
            backend,
            wt("proc07-ps.txt").includes("cli.ts"),
            "spot's own process in the worker's /proc",
          );
        });
      } finally {
        await l.cleanup();
      }
    },
  });
}
