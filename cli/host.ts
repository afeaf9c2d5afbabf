/**
 * The verbs the CLI implements itself (`hostVerb` in the table): the MCP server, whose stdout is the
 * protocol's, and the completion scripts, made from the command table.
 */
import { lazy } from "../base/lazy.ts";
import { SpotError } from "../errors.ts";
import type { Invocation } from "./invoke.ts";
import { printOk, printWarning, writeErr, writeOut } from "./output.ts";
import { buildCommands } from "./commands.ts";

const HOSTS: Record<string, (input: Record<string, unknown>, cli: Invocation) => Promise<void>> = {
  mcp: async (input, cli) => {
    // Stdout is the protocol's: nothing else is printed there, not even the usual JSON when it ends.
    try {
      const { serveMcp } = await lazy<typeof import("../mcp/server.ts")>("../mcp/server.ts", import.meta.url);
      const served = await serveMcp({
        warn: printWarning,
        log: (line) => writeErr(`[spot mcp] ${line}\n`),
        http: input.http === true,
        port: input.port as number | undefined,
        token: input.token as string | undefined,
      });
      if (served) printOk("mcp", served, cli.warnings.list);
    } catch (error) {
      await cli.fail(error);
    }
  },
  completions: async (input) => {
    const { completionScript, SHELLS } = await lazy<typeof import("./completions.ts")>(
      "./completions.ts",
      import.meta.url,
    );
    const shell = String(input.shell);
    const known = SHELLS.find((s) => s === shell);
    if (!known) {
      throw new SpotError("CLI_USAGE", `Cannot complete for "${shell}": expected ${SHELLS.join(", ")}`);
    }
    const { VERBS } = await lazy<typeof import("../table/mod.ts")>("../table/mod.ts", import.meta.url);
    writeOut(completionScript(buildCommands(VERBS), known));
  },
};

export const HOST_NAMES: readonly string[] = Object.keys(HOSTS);

export async function runHost(name: string, input: Record<string, unknown>, cli: Invocation): Promise<void> {
  await HOSTS[name](input, cli);
}
