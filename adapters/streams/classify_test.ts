import { deepStrictEqual, equal } from "node:assert/strict";
import { classify } from "./classify.ts";

const CASES: [string, string, string][] = [
  ["401 Invalid API key: the key sk-test*** was rejected", "auth", "blocking"],
  ["403 Forbidden", "auth", "blocking"],
  ["Incorrect API key provided", "auth", "blocking"],
  ["unexpected status 401 Unauthorized", "auth", "blocking"],
  ["You are not logged in", "auth", "blocking"],
  [
    "404 The model `demo-model` does not exist or you do not have access to it.",
    "model_not_found",
    "blocking",
  ],
  ["Model demo-model not found", "model_not_found", "blocking"],
  ["429 This project has exceeded your current quota", "quota", "permanent"],
  ['{"statusCode":429,"error":{"code":"insufficient_quota"}}', "quota", "permanent"],
  ["RESOURCE_EXHAUSTED: out of credits", "quota", "permanent"],
  ["429 Rate limit hit for demo-model, retry in 1s", "rate_limit", "transient"],
  ["429 Too Many Requests", "rate_limit", "transient"],
  ["rate_limit_exceeded", "rate_limit", "transient"],
  ["Request timed out.", "timeout", "transient"],
  ["connect ETIMEDOUT 10.0.0.1:443", "timeout", "transient"],
  ["503 Service Unavailable", "cli_crash", "transient"],
  ["Overloaded", "cli_crash", "transient"],
  ["read ECONNRESET", "cli_crash", "transient"],
  ["TypeError: fetch failed", "cli_crash", "transient"],
  ["Something odd happened in the agent", "cli_crash", "permanent"],
  ["400 Bad request: messages must not be empty", "cli_crash", "permanent"],
];

Deno.test("classify maps provider error text to the failure taxonomy", () => {
  for (const [message, code, cls] of CASES) {
    deepStrictEqual(classify(message), { code, class: cls, message }, message);
  }
});

Deno.test("classify does not take a number inside a word or amount for a status", () => {
  equal(classify("job-4291 failed after $0.429").code, "cli_crash");
  equal(classify("job-4291 failed after $0.429").class, "permanent");
});

Deno.test("classify keeps a placeholder for an empty message", () => {
  deepStrictEqual(classify("  "), {
    code: "cli_crash",
    class: "permanent",
    message: "Worker reported an error without a message",
  });
});

Deno.test("classify tells quota from rate limit by the body code when the status is the same", () => {
  equal(classify("Too Many Requests", { status: 429, code: "insufficient_quota" }).code, "quota");
  equal(classify("Too Many Requests", { status: 429, code: "rate_limit_exceeded" }).code, "rate_limit");
  equal(classify("Too Many Requests", { status: 429 }).code, "rate_limit");
  const body =
    '429 {"error":{"message":"Slow down","type":"insufficient_quota","code":"insufficient_quota"}}';
  equal(classify(body).code, "quota");
});

Deno.test("classify reads a Gemini zero limit as quota and a per-minute exhaustion as rate limit", () => {
  const zero =
    "[API Error: You exceeded your current quota.\n* Quota exceeded for metric: x, limit: 0, model: m]";
  equal(classify(zero).code, "quota");
  const perMinute =
    "[API Error: Resource has been exhausted (e.g. check quota).\nSuggested retry after 0.05s.]" +
    "\nPlease wait and try again later. To increase your limits, request a quota increase";
  equal(classify(perMinute).code, "rate_limit");
  equal(classify("Quota exceeded for metric requests per minute, limit: 15").code, "rate_limit");
});

Deno.test("classify makes a usage window with a reset time quota_window and keeps the reset", () => {
  const epoch = classify("Claude AI usage limit reached|1767225600");
  deepStrictEqual({ code: epoch.code, class: epoch.class, resetAt: epoch.resetAt }, {
    code: "quota_window",
    class: "permanent",
    resetAt: "2026-01-01T00:00:00.000Z",
  });
  equal(classify("5-hour limit reached ∙ resets 3pm (Europe/Berlin)").resetAt, "3pm (Europe/Berlin)");
  equal(
    classify("You've hit your usage limit. Upgrade to Pro or try again in 4 days 3 hours.").code,
    "quota_window",
  );
  equal(classify("Usage limit reached. It will reset in 3 hours").code, "quota_window");
  // A per-minute rate limit also says "try again in": it is not a window.
  equal(classify("Rate limit reached for requests per min. Please try again in 2s.").code, "rate_limit");
});

Deno.test("classify blocks on capability and config problems", () => {
  deepStrictEqual(classify("400 This model does not support tools").class, "blocking");
  equal(classify("400 This model does not support tools").code, "capability");
  equal(classify("context_length_exceeded: maximum context length is 8192 tokens").code, "capability");
  equal(classify('Error loading config.toml: `wire_api = "chat"` is no longer supported').code, "config");
  equal(classify("error: unknown option '--yolo'").code, "config");
  equal(classify("Missing environment variable: `FAKE_API_KEY`.").code, "auth");
});

Deno.test("classify keeps codex and claude wording in their classes", () => {
  equal(classify("Quota exceeded. Check your plan and billing details.").code, "quota");
  equal(classify("exceeded retry limit, last status: 429 Too Many Requests").code, "rate_limit");
  equal(classify("Invalid API key · Fix external API key", { status: 401 }).code, "auth");
  const model =
    "There's an issue with the selected model (m). It may not exist or you may not have access to it.";
  equal(classify(model, { status: 404 }).code, "model_not_found");
  equal(classify("stream disconnected before completion: idle timeout waiting for SSE").code, "timeout");
});
