/**
 * Conformance, SEC-07: the parent repository's git dir. CI systems and users leave secrets there: an
 * `http.*.extraheader` with a token, a credential helper that prints a password, a credential username,
 * a remote URL and an `insteadOf` with user info, a credentials file, hooks, `info/`, `FETCH_HEAD`, and
 * branch names in `packed-refs`. The worker's turn and the contract's check each read every file under
 * every git dir they can find, ask git for its config and a credential, and print it all; under bwrap no
 * canary may turn up (and git must still work), under none every kind must.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { cwdFacts, type HostFacts } from "../../isolation/host_facts.ts";
import { buildStepPolicy } from "../../isolation/step_policy.ts";
import { bwrapArgv } from "../../sandbox/backends/bwrap.ts";
import { systemView } from "../../sandbox/host_paths.ts";
import { spawnProcess } from "../../sandbox/spawn.ts";
import { resolveTools } from "../../sandbox/tool_roots.ts";
import { which } from "../../sandbox/which.ts";
import { makeRepo, sh, spot, writeEpisode, writeJson } from "../helpers.ts";
import { BACKENDS, expectEscape, filesContaining, lab, readOr, SCRIPT_END, shStep } from "./harness.ts";

/** Each kind of secret a git dir can hold; `<canary>-<kind>` found anywhere proves it was read. */
const KINDS = [
  "extraheader",
  "helper",
  "username",
  "remote-url",
  "insteadof",
  "credentials-file",
  "hook",
  "info",
  "fetch-head",
  "packed-ref",
];

function plantSecrets(repo: string, canary: string) {
  const c = (kind: string) => `${canary}-${kind}`;
  const config: [string, string][] = [
    ["http.https://git.example.com/.extraheader", `AUTHORIZATION: bearer ${c("extraheader")}`],
    ["credential.helper", `!f() { echo username=ci; echo password=${c("helper")}; }; f`],
    ["credential.https://git.example.com.username", c("username")],
    ["remote.origin.url", `https://x-access-token:${c("remote-url")}@git.example.com/o/r.git`],
    [`url.https://${c("insteadof")}@git.example.com/.insteadOf`, "https://git.example.com/"],
  ];
  const files: Record<string, string> = {
    "credentials": `https://ci:${c("credentials-file")}@git.example.com\n`,
    "hooks/pre-push": `#!/bin/sh\ncurl -H 'token: ${c("hook")}' https://git.example.com\n`,
    "info/exclude": `# ${c("info")}\n`,
    "FETCH_HEAD": `0000000000000000000000000000000000000000\t\tbranch 'main' of https://${
      c("fetch-head")
    }@git.example.com/o/r\n`,
  };
  return {
    kinds: KINDS.map(c),
    async plant() {
      for (const [key, value] of config) await sh(repo, "git", "config", key, value);
      for (const [rel, text] of Object.entries(files)) {
        await Deno.mkdir(join(repo, ".git", rel, ".."), { recursive: true });
        await Deno.writeTextFile(join(repo, ".git", rel), text);
      }
      await sh(repo, "git", "branch", `secret/${c("packed-ref")}`);
      await sh(repo, "git", "pack-refs", "--all");
    },
  };
}

/** What a sandboxed process can learn from git: every file under every git dir it finds, git's own answers. */
const PROBE = [
  'for d in "$(git rev-parse --git-common-dir)" "$(git rev-parse --git-dir)" "$(sed -n "s/^gitdir: //p" .git)"; do',
  // Objects are compressed and hold only what was committed, git's sample hooks only git's text.
  '  [ -d "$d" ] && find "$d" -type f ! -path "*/objects/*" ! -name "*.sample" -exec cat -v {} + 2>/dev/null',
  "done",
  "git config --list --show-origin 2>&1",
  "printf 'protocol=https\\nhost=git.example.com\\n\\n' | GIT_TERMINAL_PROMPT=0 git credential fill 2>&1",
  "git for-each-ref 2>&1",
  'echo "git-works: $(git log -1 --format=%s 2>&1)"',
  `echo ${SCRIPT_END}`,
].join("\n");

for (const backend of BACKENDS) {
  Deno.test({
    name:
      `SEC-07 under ${backend}: the parent's git config, credentials, hooks and refs never reach a worker or a check`,
    sanitizeResources: false,
    sanitizeOps: false,
    fn: async (t) => {
      const l = await lab({ files: { "add.ts": "export const add = 1;\n", ".gitignore": "probe.txt\n" } });
      try {
        const secrets = plantSecrets(l.repo, l.canary);
        await secrets.plant();
        const taskFile = join(l.dir, "task.json");
        await writeJson(taskFile, {
          schemaVersion: 1,
          goal: "Probe the git dir",
          allowedPaths: ["**"],
          acceptanceCriteria: ["nothing leaks"],
          verification: [{ argv: ["sh", "-c", PROBE], timeoutSeconds: 60 }],
          risk: "low",
        });
        const episodeFile = join(l.dir, "episode.jsonl");
        // The worker keeps what it read in an ignored file of its worktree (it would encode it into its diff
        // next); its diff is one harmless note, so the check runs too.
        await writeEpisode(episodeFile, [
          shStep(`{\n${PROBE}\n} > probe.txt 2>&1`),
          { op: "write", path: "notes.md", content: "probed\n" },
        ]);
        const prep = await spot(
          l.env,
          l.repo,
          "prepare",
          "--task",
          taskFile,
          "--profile",
          "replay",
          "--model",
          episodeFile,
          "--sandbox",
          backend,
        );
        assert.equal(prep.code, 0, prep.stderr);
        const runId = String(prep.json.runId);
        const runDir = join(l.env.stateDir, "runs", runId);
        assert.equal((await spot(l.env, l.repo, "run", "--id", runId)).code, 0);
        const verify = await spot(l.env, l.repo, "verify", "--id", runId);
        const state = JSON.parse(readOr(join(runDir, "state.json"), "{}"));
        const worker = readOr(join(state.worktreePath, "probe.txt"));
        const check = readOr(join(runDir, "verification.json"));

        await t.step("the probes ran to their end, and git still reads the worker's branch inside", () => {
          assert.match(worker, new RegExp(SCRIPT_END), "the worker's probe ran");
          assert.match(check, new RegExp(SCRIPT_END), `the check's probe ran: ${verify.stderr}`);
          assert.match(worker, /git-works: initial/, "near miss: the worker's git reads objects and HEAD");
          assert.match(
            check,
            /git-works: spot: pristine/,
            "near miss: the check's git reads its tree's commit",
          );
        });
        for (const kind of secrets.kinds) {
          await t.step(`${kind.slice(l.canary.length + 1)}: unseen by the worker and the check`, () => {
            expectEscape(backend, worker.includes(kind) || check.includes(kind), kind);
          });
        }
        await t.step(
          "no canary in the worktree or the run's records (but spot's own snapshot of the refs)",
          () => {
            const leaks = [
              ...filesContaining(state.worktreePath, l.canary),
              ...filesContaining(runDir, l.canary),
            ]
              .filter((path) => path !== join(runDir, "escape.json"));
            expectEscape(backend, leaks.length > 0, `canary in ${leaks.join(", ")}`);
          },
        );
      } finally {
        await l.cleanup();
      }
    },
  });
}

Deno.test("SEC-07 without mounts (Seatbelt's form, bwrap standing in): git reads its branch through the granted view, not the parent's config", async () => {
  const root = await Deno.realPath(await Deno.makeTempDir({ prefix: "spot-gitgrant-" }));
  try {
    const repo = await makeRepo({ "a.txt": "a\n" }, root);
    const canary = `CANARY_${crypto.randomUUID().replaceAll("-", "")}`;
    await sh(
      repo,
      "git",
      "config",
      "http.https://git.example.com/.extraheader",
      `AUTHORIZATION: bearer ${canary}`,
    );
    await Deno.writeTextFile(join(repo, ".git", "credentials"), `https://ci:${canary}@git.example.com\n`);
    const wt = join(root, "wt");
    await sh(repo, "git", "worktree", "add", "-q", "-b", "spot/w", wt);
    const cwd = await cwdFacts(wt, {
      lockedFiles: [],
      viewDir: join(root, "view"),
      identity: { name: "spot", email: "spot@localhost" },
    });
    const git = which("git", Deno.env.get("PATH") ?? "")!;
    const host: HostFacts = {
      system: systemView(),
      home: null,
      pathDirs: ["/usr/bin", "/bin"],
      denoDir: null,
      deno: Deno.execPath(),
      baseTools: [],
      spotRoot: null,
      keepOut: [repo],
      prlimit: null,
      shell: "/bin/sh",
      bridgeScript: "/nonexistent",
      mounts: false,
    };
    const policy = buildStepPolicy(
      {
        kind: "check",
        cwd: wt,
        tools: resolveTools([git], null),
        home: { path: "/home/spot-check" },
        env: { PATH: "/usr/bin:/bin" },
        network: { mode: "none" },
      },
      host,
      cwd,
    );
    assert.deepEqual(policy.binds, [], "nothing mounted over a real path");
    const common = join(await Deno.realPath(repo), ".git");
    const script =
      `git log -1 --format=%s; git config --list; cat ${common}/config ${common}/credentials; echo done`;
    const r = await spawnProcess(bwrapArgv(which("bwrap", "/usr/bin:/bin")!, policy, ["sh", "-c", script]), {
      env: {},
      timeoutMs: 30_000,
    });
    assert.match(r.stdout, /^initial$/m, `git works through the grants: ${r.stderr}`);
    assert.match(r.stdout, /user\.name=spot/, "and reads spot's config");
    assert.match(r.stdout, /done/);
    assert.ok(!(r.stdout + r.stderr).includes(canary), "the parent's config and credentials stay unreadable");
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});
