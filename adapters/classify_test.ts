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
