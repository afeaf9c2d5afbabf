#!/usr/bin/env -S deno run --allow-all
/**
 * `spot` (alias `pi-worker`): delegate a bounded coding task to a cheap worker
 * CLI and get back work you can trust. Every command prints one JSON object on
 * stdout (a table or a summary for a person at a terminal); a failure prints
 * exactly one JSON object on stderr, with a stable code and exit code.
 *
 * The CLI itself is cli/main.ts; this file only picks where it loads from: spot's JavaScript copy of itself
 * when one matches the checkout, else the TypeScript sources (boot/copy.ts, docs/performance.md).
 *
 * The orchestrator runs with --allow-all: it starts arbitrary programs anyway (git, bwrap, the steps), and
 * Deno 2.9 lets only --allow-all read /proc, which the reaper and the sandbox record need. Everything that
 * runs repo or worker code runs in a step with scoped flags (sandbox/deno_flags.ts), never -A.
 */
import { loadMain } from "./boot/copy.ts";

if (import.meta.main) Deno.exit(await (await loadMain(Deno.args)).main(Deno.args));
