/**
 * The scripted model's brain, shared by every wire dialect: which scenario
 * the server plays, what it answers a turn, and the token counts it reports.
 * Pure: the dialect files turn a request into a `Turn` and a `Reply` into bytes.
 */

export type Scenario = "success" | "401" | "429" | "429rl" | "404" | "silent" | "stall";
export const SCENARIOS: readonly Scenario[] = ["success", "401", "429", "429rl", "404", "silent", "stall"];

/** A tool the client offered, reduced to what the script needs. */
export interface OfferedTool {
  name: string;
  /** `custom` is a freeform Responses tool (codex's apply_patch). */
  kind: "function" | "custom";
  /** The JSON schema of the arguments, when the tool has one. */
  schema?: Record<string, unknown>;
}

/** One request, as every dialect sees it. */
export interface Turn {
  model: string;
  tools: OfferedTool[];
  /** The conversation already carries the result of a tool call. */
  hasToolResult: boolean;
  /** The text of the last tool result, where the dialect exposes it (OpenAI chat). */
  toolResult?: string;
  /** Every tool result of the conversation, in order, where the dialect exposes them (Anthropic). */
  toolResults?: string[];
  /** The text of the last user message (OpenAI chat): what a CLI's own summarizing call asks about. */
  userText?: string;
}

export type Reply =
  | { kind: "call"; name: string; callKind: "function" | "custom"; args: Record<string, unknown> | string }
  | { kind: "text"; text: string };

/** Token counts of one answer; `prompt` includes the cached and cache-written tokens. */
export interface Tokens {
  prompt: number;
  cached: number;
  cacheWrite: number;
  output: number;
}

/** Distinct numbers per answer kind, so a CLI that maps a field wrongly shows up in the totals. */
export const CALL_TOKENS: Tokens = Object.freeze({ prompt: 1500, cached: 400, cacheWrite: 70, output: 60 });
export const FINAL_TOKENS: Tokens = Object.freeze({ prompt: 1700, cached: 1200, cacheWrite: 0, output: 9 });
/** A request with no tools (a title or summary call) gets a plain answer with these counts. */
export const PLAIN_TOKENS: Tokens = Object.freeze({ prompt: 110, cached: 0, cacheWrite: 0, output: 3 });

export const FINAL_TEXT = "done";
export const PLAIN_TEXT = "Hello file";

export interface ScriptOptions {
  /** Absolute worktree path; CLIs whose write tool wants absolute paths get one under it. */
  workdir?: string;
  file: string;
  content: string;
  /** The final answer after the write (default FINAL_TEXT): a job task's result JSON, say. */
  finalText?: string;
  /**
   * Instead of writing: call the CLI's web fetch tool on this URL (named `fetchTool`, called whether the CLI
   * offered it or not), then end with `finalTextFor(what the tool returned)`.
   */
  fetch?: { url: string; tool: string; finalTextFor: (toolResult: string) => string };
}

/** Write tools by name, most specific first. */
const WRITE_TOOLS = ["write", "Write", "write_file", "create_file", "write_to_file", "WriteFile"];
const PATH_KEYS = ["file_path", "filePath", "path", "absolute_path", "filename"];
const CONTENT_KEYS = ["content", "contents", "file_text", "text"];
const SHELL_TOOLS = ["exec_command", "shell", "bash", "Bash", "run_shell_command", "shell_command"];

function properties(tool: OfferedTool): string[] {
  const props = tool.schema?.properties;
  return props && typeof props === "object" ? Object.keys(props) : [];
}

function pick(keys: string[], wanted: string[], fallback: string): string {
  return wanted.find((k) => keys.includes(k)) ?? fallback;
}

function target(options: ScriptOptions): string {
  return options.workdir ? `${options.workdir.replace(/\/$/, "")}/${options.file}` : options.file;
}

function writeCall(tool: OfferedTool, options: ScriptOptions): Reply {
  const keys = properties(tool);
  const args = {
    [pick(keys, PATH_KEYS, "path")]: target(options),
    [pick(keys, CONTENT_KEYS, "content")]: options.content,
  };
  return { kind: "call", name: tool.name, callKind: "function", args };
}

function patchCall(tool: OfferedTool, options: ScriptOptions): Reply {
  const body = options.content.replace(/\n$/, "").split("\n").map((l) => `+${l}`).join("\n");
  const patch = `*** Begin Patch\n*** Add File: ${options.file}\n${body}\n*** End Patch\n`;
  if (tool.kind === "custom") return { kind: "call", name: tool.name, callKind: "custom", args: patch };
  return { kind: "call", name: tool.name, callKind: "function", args: { input: patch } };
}

function shellCall(tool: OfferedTool, options: ScriptOptions): Reply {
  const script = `printf '%s' '${options.content.replaceAll("'", "'\\''")}' > '${options.file}'`;
  const keys = properties(tool);
  if (keys.includes("cmd")) {
    return { kind: "call", name: tool.name, callKind: "function", args: { cmd: script } };
  }
  if (tool.name === "shell" && !keys.includes("command")) {
    return { kind: "call", name: tool.name, callKind: "function", args: { command: ["sh", "-c", script] } };
  }
  const commandIsArray = (tool.schema?.properties as Record<string, { type?: string }> | undefined)
    ?.command?.type === "array";
  const command = commandIsArray ? ["sh", "-c", script] : script;
  return { kind: "call", name: tool.name, callKind: "function", args: { command } };
}

/** The fetch call, with the arguments the offered tool's schema names (a CLI may refuse unknown ones). */
function fetchCall(turn: Turn, fetch: NonNullable<ScriptOptions["fetch"]>): Reply {
  const offered = turn.tools.find((t) => t.name === fetch.tool);
  const keys = offered ? properties(offered) : ["url"];
  const all: Record<string, string> = {
    url: fetch.url,
    format: "text",
    prompt: "Quote the page word for word",
  };
  const args = Object.fromEntries(Object.entries(all).filter(([k]) => keys.includes(k)));
  return { kind: "call", name: fetch.tool, callKind: "function", args };
}

/** What the scripted model says to this turn of a successful conversation. */
export function decide(turn: Turn, options: ScriptOptions): Reply {
  // A CLI's own tool-less call (a title; qwen's web_fetch summarizing the page) gets its question back.
  if (turn.tools.length === 0 && options.fetch) return { kind: "text", text: turn.userText ?? PLAIN_TEXT };
  if (turn.tools.length === 0) return { kind: "text", text: PLAIN_TEXT };
  if (options.fetch) {
    if (turn.hasToolResult) return { kind: "text", text: options.fetch.finalTextFor(turn.toolResult ?? "") };
    return fetchCall(turn, options.fetch);
  }
  if (turn.hasToolResult) return { kind: "text", text: options.finalText ?? FINAL_TEXT };
  const byName = (names: string[]) => names.map((n) => turn.tools.find((t) => t.name === n)).find(Boolean);
  const write = byName(WRITE_TOOLS);
  if (write) return writeCall(write, options);
  const patch = byName(["apply_patch"]);
  if (patch) return patchCall(patch, options);
  const shell = byName(SHELL_TOOLS);
  if (shell) return shellCall(shell, options);
  return { kind: "text", text: options.finalText ?? FINAL_TEXT };
}

/** The counts the server reports for a reply. */
export function tokensFor(turn: Turn, reply: Reply): Tokens {
  if (turn.tools.length === 0) return PLAIN_TOKENS;
  return reply.kind === "call" ? CALL_TOKENS : FINAL_TOKENS;
}
