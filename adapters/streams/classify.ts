/**
 * Error text → failure taxonomy. Worker CLIs report provider errors as free
 * text, so the order matters: a usage window with a reset time first, then
 * the HTTP status and the body code (quota and rate limit share 429 and
 * differ only in the body), then the wording.
 */
import type { WorkerFailure } from "../types.ts";

/** Said when a worker stopped on an error but gave no text for it. */
const NO_MESSAGE = "Worker reported an error without a message";

/** What a CLI sometimes knows beyond the text: the HTTP status and the provider's body code. */
export interface ClassifyHints {
  status?: number;
  /** `insufficient_quota`, `rate_limit_exceeded`, `RESOURCE_EXHAUSTED`, … */
  code?: string;
}

const AUTH =
  /invalid api[ _-]?key|incorrect api key|invalid x-api-key|unauthori[sz]ed|unauthenticated|not logged in|login required|authentication[ _](failed|error)|missing environment variable|api key (is )?(missing|not set|not valid)/i;
const AUTH_CODES = new Set([
  "invalid_api_key",
  "authentication_error",
  "unauthenticated",
  "permission_denied",
]);
const CONFIG =
  /error loading config|invalid config|configuration (file )?is invalid|unknown (option|argument|flag)|unexpected argument|no such option|is no longer supported|ConfigInvalidError/i;
const MODEL_MISSING =
  /\bmodel\b.*\b(does not exist|not found|is not supported|may not exist)\b|model_not_found/i;
const CAPABILITY =
  /does not support (tools|tool use|tool calling|function calling|images|image input|vision)|(tools?|function calling|tool_use|image input) (is |are )?not supported|context[ _]length[ _]exceeded|maximum context length|prompt is too long/i;
/** A rolling usage window (hours, days): it ends at a known time, unlike an empty balance. */
const WINDOW =
  /usage limit|\b(\d+|five)[- ]hour limit|weekly limit|daily (usage )?(limit|quota)|exhausted your daily quota|limit reached\W+resets?/i;
const QUOTA_STRONG =
  /insufficient_quota|exceeded your current quota|credit balance is too low|billing|limit:\s*0(?![\d.])|out of credits|insufficient (balance|credits?|funds)|account (balance|is in arrears)|余额不足|欠费/i;
const RATE_LIMIT =
  /rate[ _-]?limit|too many requests|per[ _-]?minute|PerMinute|\b[RT]PM\b|retry (in|after)|resource[ _]?(has been )?exhausted|overloaded_error/i;
const QUOTA_WEAK = /quota exceeded|exceeded (the |your )?quota/i;
const QUOTA_CODES = new Set(["insufficient_quota", "billing_hard_limit_reached", "insufficient_balance"]);
const RATE_CODES = new Set(["rate_limit_exceeded", "rate_limit_error", "rate_limit", "too_many_requests"]);
const TIMED_OUT = /timed out|\btimeout\b|ETIMEDOUT|idle timeout/i;
const NETWORK =
  /overloaded|ECONNRESET|ECONNREFUSED|EAI_AGAIN|ENOTFOUND|EPIPE|socket hang up|fetch failed|network|connection (error|reset|refused)|stream disconnected/i;

/** The first 4xx/5xx status in the text; CLIs put it first or after "status". */
function httpStatus(message: string): number | undefined {
  const match = /(?<![\w.$])([45]\d\d)(?![\w.])/.exec(message);
  return match ? Number(match[1]) : undefined;
}

/** Body codes quoted in the text (`"code":"insufficient_quota"`, `"status":"RESOURCE_EXHAUSTED"`). */
function bodyCodes(message: string): string[] {
  const codes: string[] = [];
  for (const m of message.matchAll(/\\?"(?:code|type|status|error)\\?"\s*:\s*\\?"([A-Za-z_]+)\\?"/g)) {
    codes.push(m[1].toLowerCase());
  }
  return codes;
}

/** When a usage window ends: an epoch (`…|1767225600`), an ISO time, or the CLI's own words. */
export function resetTime(message: string): string | undefined {
  const epoch = /\|(\d{10})\b/.exec(message);
  if (epoch) return new Date(Number(epoch[1]) * 1000).toISOString();
  const iso = /\d{4}-\d\d-\d\dT\d\d:\d\d(:\d\d(\.\d+)?)?(Z|[+-]\d\d:?\d\d)?/.exec(message);
  if (iso && !Number.isNaN(Date.parse(iso[0]))) return new Date(iso[0]).toISOString();
  const words = /(?:resets?|try again)\s+((?:at|in|on)\s+)?([^.\n·∙,;]{1,40})/i.exec(message);
  return words ? words[2].trim() : undefined;
}

/** Classifies a worker's error message; the original text is kept as the message. */
export function classify(message: string, hints: ClassifyHints = {}): WorkerFailure {
  const text = message.trim() === "" ? NO_MESSAGE : message;
  const status = hints.status ?? httpStatus(text);
  const codes = [...(hints.code ? [hints.code.toLowerCase()] : []), ...bodyCodes(text)];
  const has = (set: Set<string>) => codes.some((c) => set.has(c));
  const fail = (code: WorkerFailure["code"], cls: WorkerFailure["class"]): WorkerFailure => ({
    code,
    class: cls,
    message: text,
  });

  if (WINDOW.test(text) && !/rate[ _-]?limit/i.test(text)) {
    const resetAt = resetTime(text);
    return { ...fail("quota_window", "permanent"), ...(resetAt ? { resetAt } : {}) };
  }
  if (status === 401 || status === 403 || has(AUTH_CODES) || AUTH.test(text)) return fail("auth", "blocking");
  if (CONFIG.test(text)) return fail("config", "blocking");
  if (
    has(new Set(["model_not_found"])) || (status === 404 && /\bmodel/i.test(text)) || MODEL_MISSING.test(text)
  ) {
    return fail("model_not_found", "blocking");
  }
  if (CAPABILITY.test(text)) return fail("capability", "blocking");
  if (has(QUOTA_CODES) || QUOTA_STRONG.test(text)) return fail("quota", "permanent");
  if (has(RATE_CODES) || status === 429 || RATE_LIMIT.test(text)) return fail("rate_limit", "transient");
  if (QUOTA_WEAK.test(text)) return fail("quota", "permanent");
  if (TIMED_OUT.test(text)) return fail("timeout", "transient");
  if ((status !== undefined && status >= 500) || NETWORK.test(text)) return fail("cli_crash", "transient");
  return fail("cli_crash", "permanent");
}
