/**
 * The provider errors the scripted model plays, in each wire dialect's own
 * shape. Quota and rate limit share status 429 and differ only in the body,
 * as they do at real providers.
 */
import type { Scenario } from "./script.ts";

export type Dialect = "openai" | "anthropic" | "gemini";

export interface ErrorReply {
  status: number;
  headers: Record<string, string>;
  body: unknown;
}

const QUOTA_TEXT = "You exceeded your current quota, please check your plan and billing details.";
const RATE_TEXT =
  "Rate limit reached for requests per min (RPM): Limit 3, Used 3, Requested 1. Please try again.";

function openai(scenario: Scenario, model: string): ErrorReply | null {
  const err = (status: number, message: string, type: string, code: string): ErrorReply => ({
    status,
    headers: {},
    body: { error: { message, type, param: null, code } },
  });
  switch (scenario) {
    case "401":
      return err(
        401,
        "Incorrect API key provided: sk-***. Check the key you configured.",
        "invalid_request_error",
        "invalid_api_key",
      );
    case "429":
      return err(429, QUOTA_TEXT, "insufficient_quota", "insufficient_quota");
    case "429rl":
      return err(429, RATE_TEXT, "requests", "rate_limit_exceeded");
    case "404":
      return err(
        404,
        `The model \`${model}\` does not exist or you do not have access to it.`,
        "invalid_request_error",
        "model_not_found",
      );
    default:
      return null;
  }
}

function anthropic(scenario: Scenario, model: string): ErrorReply | null {
  const err = (status: number, type: string, message: string): ErrorReply => ({
    status,
    headers: {},
    body: { type: "error", error: { type, message } },
  });
  switch (scenario) {
    case "401":
      return err(401, "authentication_error", "invalid x-api-key");
    // Anthropic-compatible gateways report an empty balance with the OpenAI code in the type.
    case "429":
      return err(429, "insufficient_quota", QUOTA_TEXT);
    case "429rl":
      return err(429, "rate_limit_error", "Number of request tokens has exceeded your per-minute rate limit");
    case "404":
      return err(404, "not_found_error", `model: ${model}`);
    default:
      return null;
  }
}

function gemini(scenario: Scenario, model: string, retryAfterMs: number): ErrorReply | null {
  const err = (code: number, status: string, message: string, details: unknown[] = []): ErrorReply => ({
    status: code,
    headers: {},
    body: { error: { code, message, status, details } },
  });
  switch (scenario) {
    case "401":
      return err(401, "UNAUTHENTICATED", "API key not valid. Please pass a valid API key.");
    // A project with no quota at all says `limit: 0`; that is what an unpaid key gets.
    case "429":
      return err(
        429,
        "RESOURCE_EXHAUSTED",
        `${QUOTA_TEXT}\n* Quota exceeded for metric: generate_content_requests, limit: 0, model: ${model}`,
      );
    case "429rl":
      return err(429, "RESOURCE_EXHAUSTED", "Resource has been exhausted (e.g. check quota).", [
        {
          "@type": "type.googleapis.com/google.rpc.QuotaFailure",
          violations: [{ quotaId: "GenerateRequestsPerMinutePerProjectPerModel" }],
        },
        // gemini-cli treats a zero delay as none and falls back to 60 s, so the delay is never zero.
        {
          "@type": "type.googleapis.com/google.rpc.RetryInfo",
          retryDelay: `${Math.max(retryAfterMs, 1) / 1000}s`,
        },
      ]);
    case "404":
      return err(
        404,
        "NOT_FOUND",
        `models/${model} is not found for API version v1beta, or is not supported for generateContent.`,
      );
    default:
      return null;
  }
}

/** The error this scenario answers with, or null when the scenario is not an error. */
export function errorReply(
  dialect: Dialect,
  scenario: Scenario,
  model: string,
  retryAfterMs: number,
): ErrorReply | null {
  const reply = dialect === "openai"
    ? openai(scenario, model)
    : dialect === "anthropic"
    ? anthropic(scenario, model)
    : gemini(scenario, model, retryAfterMs);
  if (reply && reply.status === 429) {
    // Clients read the millisecond header first; the seconds header is for those that do not.
    reply.headers["retry-after-ms"] = String(retryAfterMs);
    reply.headers["retry-after"] = String(Math.ceil(retryAfterMs / 1000));
    reply.headers["x-ratelimit-reset-requests"] = `${Math.ceil(retryAfterMs / 1000)}s`;
  }
  return reply;
}
