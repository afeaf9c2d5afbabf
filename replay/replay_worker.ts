/**
 * spot-replay: plays a scripted episode and speaks the `pi --mode json`
 * stream, so every stage after the worker can run offline and
 * deterministically. It imports only relative files because it runs under
 * `--no-config` with a fresh HOME, and it is unconfined like a real CLI.
 */
import {
  applyTemplate,
  EPISODE_PHASES,
  EpisodeError,
  type EpisodeLine,
  type EpisodePhase,
  parseEpisode,
  stepsForPhase,
  type TemplateVars,
  templateVars,
} from "./episode.ts";

const USAGE = "Usage: spot-replay --episode <file.jsonl> --phase <run|revise|self-review|follow-up> " +
  "[--session-dir <dir> [--session <id>]]";
/** Bad arguments and bad episodes exit like a CLI usage error. */
const EXIT_USAGE = 2;
/** An escaped bug is a crash, which callers must tell apart from a usage error. */
const EXIT_CRASH = 1;
/** pi caps tool output it echoes; the cap keeps a chatty command from flooding the stream. */
const EXEC_OUTPUT_CAP = 4000;

interface ToolResult {
  text: string;
  isError: boolean;
}

type UsageStep = Extract<EpisodeLine, { op: "usage" }>;

/** Writes pi's JSON-lines events to stdout, synchronously so each line is out before the next step. */
class Emitter {
  #encoder = new TextEncoder();
  #model: string;
  #lastSaid: string | undefined;
  #calls = 0;

  constructor(model: string) {
    this.#model = model;
  }

  #emit(event: Record<string, unknown>): void {
    const bytes = this.#encoder.encode(JSON.stringify(event) + "\n");
    for (let done = 0; done < bytes.length;) done += Deno.stdout.writeSync(bytes.subarray(done));
  }

  #message(content: unknown[], stopReason: string, step?: UsageStep, errorMessage?: string) {
    const u = step ?? { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, costUsd: 0 };
    const usage = {
      input: u.input,
      output: u.output,
      cacheRead: u.cacheRead,
      cacheWrite: u.cacheWrite,
      totalTokens: u.input + u.output + u.cacheRead + u.cacheWrite,
      cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: u.costUsd },
    };
    const message = { role: "assistant", content, provider: "replay", model: this.#model, usage, stopReason };
    return { ...message, timestamp: Date.now(), ...(errorMessage === undefined ? {} : { errorMessage }) };
  }

  #assistant(message: Record<string, unknown>): void {
    this.#emit({ type: "message_start", message: { ...message, content: [] } });
    this.#emit({ type: "message_end", message });
  }

  start(id: string): void {
    this.#emit({ type: "session", version: 3, id, timestamp: new Date().toISOString(), cwd: Deno.cwd() });
    this.#emit({ type: "agent_start" });
    this.#emit({ type: "turn_start" });
  }

  say(text: string): void {
    this.#lastSaid = text;
    this.#assistant(this.#message([{ type: "text", text }], "stop"));
  }

  usage(step: UsageStep): void {
    this.#assistant(this.#message([], "stop", step));
  }

  async tool(name: string, args: Record<string, unknown>, run: () => Promise<ToolResult>): Promise<void> {
    const toolCallId = `call_replay_${++this.#calls}`;
    const call = { type: "toolCall", id: toolCallId, name, arguments: args };
    this.#assistant(this.#message([call], "toolUse"));
    this.#emit({ type: "tool_execution_start", toolCallId, toolName: name, args });
    // A tool that throws is reported to the model, as pi does, and the episode goes on.
    const result = await run().catch((error: Error): ToolResult => ({ text: error.message, isError: true }));
    const content = [{ type: "text", text: result.text }];
    this.#emit({
      type: "tool_execution_end",
      toolCallId,
      toolName: name,
      result: { content },
      isError: result.isError,
    });
  }

  fail(errorMessage: string): void {
    const message = this.#message([], "error", undefined, errorMessage);
    this.#assistant(message);
    this.#emit({ type: "agent_end", messages: [message] });
  }

  end(): void {
    const said = this.#lastSaid === undefined ? [] : [{ type: "text", text: this.#lastSaid }];
    this.#emit({ type: "agent_end", messages: [this.#message(said, "stop")] });
  }
}

interface Args {
  episode: string;
  phase: EpisodePhase;
  sessionDir?: string;
  session?: string;
}

const FLAGS = ["--episode", "--phase", "--session-dir", "--session"] as const;
type Flag = typeof FLAGS[number];

function parseArgs(args: string[]): Args | string {
  const found: Partial<Record<Flag, string>> = {};
  for (let i = 0; i < args.length; i += 2) {
    const flag = args[i] as Flag;
    if (!FLAGS.includes(flag)) return `Unknown argument "${flag}"`;
    if (args[i + 1] === undefined) return `Missing value for "${flag}"`;
    found[flag] = args[i + 1];
  }
  const { "--episode": episode, "--phase": phase, "--session-dir": sessionDir, "--session": session } = found;
  if (episode === undefined) return `Missing argument "--episode"`;
  if (phase === undefined) return `Missing argument "--phase"`;
  if (!EPISODE_PHASES.includes(phase as EpisodePhase)) return `Unknown phase "${phase}"`;
  if (session !== undefined && sessionDir === undefined) return `"--session" needs "--session-dir"`;
  return {
    episode,
    phase: phase as EpisodePhase,
    ...(sessionDir !== undefined ? { sessionDir } : {}),
    ...(session !== undefined ? { session } : {}),
  };
}

/**
 * The simulated session: one file per id in the session directory, a line per turn's prompt, as pi keeps
 * its own. Resuming an id with no file fails like a CLI that cannot find the session.
 */
async function openSession(args: Args, prompt: string): Promise<string> {
  const id = args.session ?? crypto.randomUUID();
  if (args.sessionDir === undefined) return id;
  const file = `${args.sessionDir}/${id}.jsonl`;
  if (args.session !== undefined) {
    try {
      await Deno.stat(file);
    } catch {
      throw new Error(`No session found matching "${id}" in ${args.sessionDir}`);
    }
  }
  await Deno.mkdir(args.sessionDir, { recursive: true });
  await Deno.writeTextFile(file, JSON.stringify({ phase: args.phase, prompt }) + "\n", { append: true });
  return id;
}

function parentDir(path: string): string | undefined {
  const cut = path.lastIndexOf("/");
  return cut > 0 ? path.slice(0, cut) : undefined;
}

async function writeFile(path: string, content: string): Promise<ToolResult> {
  const dir = parentDir(path);
  if (dir) await Deno.mkdir(dir, { recursive: true });
  await Deno.writeTextFile(path, content);
  return { text: `Wrote ${new TextEncoder().encode(content).length} bytes to ${path}`, isError: false };
}

async function deleteFile(path: string): Promise<ToolResult> {
  await Deno.remove(path, { recursive: true });
  return { text: `Deleted ${path}`, isError: false };
}

async function execArgv(argv: string[]): Promise<ToolResult> {
  const [program, ...args] = argv;
  const out = await new Deno.Command(program, { args, stdin: "null", stdout: "piped", stderr: "piped" })
    .output();
  const decoder = new TextDecoder();
  let text = (decoder.decode(out.stdout) + decoder.decode(out.stderr)).slice(0, EXEC_OUTPUT_CAP);
  if (!out.success) text += `\nCommand exited with code ${out.code}`;
  return { text, isError: !out.success };
}

/** Plays the steps; returns the process exit code. */
async function play(
  steps: EpisodeLine[],
  vars: TemplateVars,
  out: Emitter,
  session: string,
): Promise<number> {
  out.start(session);
  for (const step of steps) {
    switch (step.op) {
      case "say":
        out.say(applyTemplate(step.text, vars));
        break;
      case "usage":
        out.usage(step);
        break;
      case "sleep":
        await new Promise((resolve) => setTimeout(resolve, step.ms));
        break;
      case "write": {
        const content = applyTemplate(step.content, vars);
        await out.tool("write", { path: step.path, content }, () => writeFile(step.path, content));
        break;
      }
      case "delete":
        await out.tool("delete", { path: step.path }, () => deleteFile(step.path));
        break;
      case "exec":
        await out.tool("bash", { command: step.argv.join(" ") }, () => execArgv(step.argv));
        break;
      case "exit":
        return step.code;
      case "fail":
        out.fail(step.message);
        return 0;
    }
  }
  out.end();
  return 0;
}

async function main(args: string[]): Promise<number> {
  const parsed = parseArgs(args);
  if (typeof parsed === "string") {
    console.error(`spot-replay: ${parsed}\n${USAGE}`);
    return EXIT_USAGE;
  }
  let steps: EpisodeLine[];
  try {
    steps = stepsForPhase(parseEpisode(await Deno.readTextFile(parsed.episode)), parsed.phase);
  } catch (error) {
    const where = error instanceof EpisodeError ? `${parsed.episode}:${error.line}` : parsed.episode;
    console.error(`spot-replay: ${where}: ${(error as Error).message}`);
    return EXIT_USAGE;
  }
  // Like pi, block until stdin is closed: the prompt arrives there.
  const prompt = await new Response(Deno.stdin.readable).text();
  let session: string;
  try {
    session = await openSession(parsed, prompt);
  } catch (error) {
    console.error(`spot-replay: ${(error as Error).message}`);
    return EXIT_USAGE;
  }
  const out = new Emitter(parsed.episode.split("/").pop() ?? "replay");
  return await play(steps, templateVars(prompt), out, session);
}

if (import.meta.main) {
  let code = EXIT_CRASH;
  try {
    code = await main(Deno.args);
  } catch (error) {
    console.error(`spot-replay: ${(error as Error).stack ?? error}`);
  }
  Deno.exit(code);
}

export { parseArgs };
