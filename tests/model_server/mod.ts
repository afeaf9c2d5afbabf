/**
 * A scripted model server for tests: OpenAI chat and Responses, Anthropic
 * Messages and Gemini on 127.0.0.1, one scenario at a time.
 * @module
 */
export {
  type ModelServer,
  type ModelServerOptions,
  type RecordedRequest,
  startModelServer,
} from "./server.ts";
export {
  CALL_TOKENS,
  FINAL_TEXT,
  FINAL_TOKENS,
  type OfferedTool,
  type Reply,
  type Scenario,
  SCENARIOS,
  type Turn,
} from "./script.ts";
export { anthropicUsage, plainUsage } from "./usage.ts";
