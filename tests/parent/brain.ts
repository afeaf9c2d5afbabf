/**
 * The parent agent's scripted model: a list of steps, each a tool call of `spot mcp` made from what the
 * earlier calls returned (the run id prepare gave, the diff hash verify gave, …), then a final answer. The
 * model server asks it for every answer of the parent's conversation (`brain` in tests/model_server).
 */
import type { Reply, Turn } from "../model_server/mod.ts";

/** What a step sees: each earlier tool result, parsed as JSON where it is JSON. */
export type Results = { text: string; json: Record<string, unknown> }[];

export interface Step {
  /** The spot tool, as `spot mcp` names it (`spot_prepare`). */
  tool: string;
  args: (results: Results) => Record<string, unknown>;
}

export interface Brain {
  decide: (turn: Turn) => Reply;
  /** Every tool the parent's CLI offered its model, on any turn. */
  offered: () => string[];
  /** Every tool result the conversation carried, when it last asked. */
  results: () => Results;
}

export const FINAL = "All delegated work is integrated.";

/**
 * The spot tool a CLI's name for it stands for, or undefined: each CLI prefixes an MCP server's tools with the
 * server's name its own way (Claude Code and Codex `mcp__spot__spot_prepare`, Gemini `mcp_spot_spot_prepare`).
 */
export function spotTool(offered: string): string | undefined {
  return /^mcp__?spot__?(spot_[a-z_]+)$/.exec(offered)?.[1];
}

/**
 * A tool result's JSON: the whole text, or the object inside what the CLI wrapped it in (Codex puts
 * `Wall time: …\nOutput:\n` first; Gemini wraps it in `<untrusted_context>`).
 */
function parse(text: string): Record<string, unknown> {
  for (const part of [text, text.slice(text.indexOf("{"), text.lastIndexOf("}") + 1)]) {
    try {
      const value = JSON.parse(part);
      if (value && typeof value === "object") return value;
    } catch {
      // not JSON
    }
  }
  return {};
}

/**
 * Step i is answered when the conversation holds i tool results. A CLI's tool-less calls (a title) get plain
 * text. The tool is called by the name the CLI offered for it (`spotTool`), or by its bare name when it was not
 * offered, so a missing tool fails as the CLI's own refusal.
 */
export function scriptedParent(steps: Step[]): Brain {
  const offered = new Set<string>();
  let results: Results = [];
  return {
    offered: () => [...offered],
    results: () => results,
    decide(turn) {
      if (turn.tools.length === 0) return { kind: "text", text: "Delegating with spot" };
      for (const t of turn.tools) offered.add(t.name);
      results = (turn.toolResults ?? []).map((text) => ({ text, json: parse(text) }));
      const step = steps[results.length];
      if (!step) return { kind: "text", text: FINAL };
      const name = turn.tools.find((t) => spotTool(t.name) === step.tool)?.name ?? step.tool;
      return { kind: "call", name, callKind: "function", args: step.args(results) };
    },
  };
}
