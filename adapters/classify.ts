/**
 * Error text → failure taxonomy. Worker CLIs report provider errors as free
 * text, so the HTTP status is matched first and the body wording second
 * (quota and rate limit share 429 and differ only in the body).
 */
import type { WorkerFailure } from "./types.ts";

/** Said when a worker stopped on an error but gave no text for it. */
const NO_MESSAGE = "Worker reported an error without a message";

const AUTH = /invalid api key|incorrect api key|unauthorized|unauthenticated|not logged in/i;
const MODEL_MISSING = /\bmodel\b.*\b(does not exist|not found)\b/i;
const QUOTA = /insufficient_quota|exceeded your current quota|quota exceeded|resource_exhausted/i;
const RATE_LIMIT = /rate[ _-]?limit|too many requests/i;
const TIMED_OUT = /timed out|\btimeout\b|ETIMEDOUT/i;
const NETWORK =
  /overloaded|ECONNRESET|ECONNREFUSED|EAI_AGAIN|ENOTFOUND|EPIPE|socket hang up|fetch failed|network|connection (error|reset|refused)/i;

/** The first 4xx/5xx status in the text; CLIs put it first or after "status". */
function httpStatus(message: string): number | undefined {
  const match = /(?<![\w.])([45]\d\d)(?![\w.])/.exec(message);
  return match ? Number(match[1]) : undefined;
}

/** Classifies a worker's error message; the original text is kept as the message. */
export function classify(message: string): WorkerFailure {
  const text = message.trim() === "" ? NO_MESSAGE : message;
  const status = httpStatus(text);
  const fail = (code: WorkerFailure["code"], cls: WorkerFailure["class"]): WorkerFailure => ({
    code,
    class: cls,
    message: text,
  });

  if (status === 401 || status === 403 || AUTH.test(text)) return fail("auth", "blocking");
  if ((status === 404 && /\bmodel\b/i.test(text)) || MODEL_MISSING.test(text)) {
    return fail("model_not_found", "blocking");
  }
  if (QUOTA.test(text)) return fail("quota", "permanent");
  if (status === 429 || RATE_LIMIT.test(text)) return fail("rate_limit", "transient");
  if (TIMED_OUT.test(text)) return fail("timeout", "transient");
  if ((status !== undefined && status >= 500) || NETWORK.test(text)) return fail("cli_crash", "transient");
  return fail("cli_crash", "permanent");
}
