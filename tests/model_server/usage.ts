/** How the server's own counts map to spot's normalized usage, per dialect. */
import type { Usage } from "../../schemas/events.ts";
import type { Tokens } from "./script.ts";

/** OpenAI and Gemini report cached tokens inside the prompt count and have no cache-write field. */
export function plainUsage(tokens: Tokens): Usage {
  return {
    input: tokens.prompt - tokens.cached,
    output: tokens.output,
    cacheRead: tokens.cached,
    cacheWrite: 0,
  };
}

/** Anthropic reports input without the cached and cache-written tokens, and both of those apart. */
export function anthropicUsage(tokens: Tokens): Usage {
  return {
    input: tokens.prompt - tokens.cached - tokens.cacheWrite,
    output: tokens.output,
    cacheRead: tokens.cached,
    cacheWrite: tokens.cacheWrite,
  };
}
