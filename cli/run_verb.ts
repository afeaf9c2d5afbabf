/**
 * Runs a verb of the table for the command line: the parsed options become the verb's input, and its
 * result goes out as the JSON, the text a parent reads, or (on a terminal) the human view.
 */
import { lazy } from "../base/lazy.ts";
import { type AnyVerb, looksFor, type VerbIo } from "../table/verb.ts";
import { cliInput } from "./fields.ts";
import type { Invocation } from "./invoke.ts";
import { humanNote, writeErr, writeOut } from "./output.ts";
import type { Options } from "./spec.ts";
import { wantsHuman } from "./invoke.ts";

function ioFor(cli: Invocation): VerbIo {
  return {
    face: "cli",
    print: (line) => writeOut(line + "\n"),
    note: (text) => humanNote(text),
    log: (line) => writeErr(line + "\n"),
    env: (name) => Deno.env.get(name),
    warn: cli.warnings.add,
  };
}

export async function runOnCli(v: AnyVerb, options: Options, cli: Invocation): Promise<void> {
  const input = cliInput(v, options);
  const io = ioFor(cli);
  const text = v.text && ((result: object) => v.text!(result, input));
  if ("host" in v) {
    const host = await lazy<typeof import("./host.ts")>("./host.ts", import.meta.url);
    return await host.runHost(v.name, input, cli);
  }
  if ("bare" in v) return await cli.bare(v.name, () => v.bare(input, io), text);
  const render = v.human && wantsHuman(options)
    ? (await lazy<typeof import("./views.ts")>("./views.ts", import.meta.url)).viewOf(v.name)
    : undefined;
  await cli.verb(v.name, options, (ctx) => v.run(ctx, input, io), {
    // A daemon answers its signals itself (`executor join`: SIGTERM drains, then it exits 0).
    interruptible: v.annotations?.long === true && v.annotations.daemon !== true,
    loadConfig: v.loadConfig,
    readOnly: looksFor(v, input),
    render,
    text,
  });
}
