/**
 * Runs the CLI on a pseudo-terminal, as a person at a terminal would, with `script` (util-linux): stdout
 * and stderr are both the terminal, so the human views and the warning lines show. The screen's bytes
 * come back with the terminal's CRLF turned into LF, and without the line-clearing Deno itself writes to a
 * terminal while it starts (its progress bar), which is not spot's output.
 */
import { join } from "node:path";
import { spawnProcess } from "../../sandbox/spawn.ts";
import { CLI, CLI_FLAGS, ROOT, type SpotEnv } from "../helpers.ts";

/** Wide enough for every golden table; fixed so the output does not depend on the machine. */
export const COLUMNS = 120;

/** What Deno's start-up progress bar leaves on a terminal: column 0, clear the line, clear below. */
const DENO_CLEAR = "\x1b[0G\x1b[2K\x1b[J";

const quote = (s: string) => `'${s.replaceAll("'", `'\\''`)}'`;

export interface PtyResult {
  code: number | null;
  output: string;
}

export async function runUnderPty(
  env: SpotEnv,
  args: string[],
  options: { cwd?: string; env?: Record<string, string> } = {},
): Promise<PtyResult> {
  const spot = [
    Deno.execPath(),
    "run",
    ...CLI_FLAGS,
    "--no-prompt",
    "--config",
    join(ROOT, "deno.json"),
    CLI,
  ];
  const command = `stty cols ${COLUMNS} rows 50; exec ${[...spot, ...args].map(quote).join(" ")}`;
  const r = await spawnProcess(["script", "-q", "-e", "-c", command, "/dev/null"], {
    cwd: options.cwd ?? env.dir,
    env: { ...env.env, TERM: "xterm-256color", SHELL: "/bin/sh", ...options.env },
    timeoutMs: 120_000,
  });
  return { code: r.exitCode, output: r.stdout.replaceAll("\r\n", "\n").replaceAll(DENO_CLEAR, "") };
}
