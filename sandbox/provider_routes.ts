/**
 * What the provider forwarder lets through, as pure rules: the model API's
 * routes and methods under the profile's base path, the credential swap, and
 * the headers that cross. Everything else is refused and logged.
 */
import { redactText } from "./key_redaction.ts";

export type ProviderApi = "openai-completions" | "openai-responses" | "anthropic-messages" | "google-gemini";

/** The wire API of a profile without `providerType`: what pi speaks to a custom endpoint. */
export const DEFAULT_API: ProviderApi = "openai-completions";

const ROUTES: Record<ProviderApi, { method: string; path: RegExp }[]> = {
  "openai-completions": [
    { method: "POST", path: /^\/chat\/completions$/ },
    { method: "GET", path: /^\/models$/ },
  ],
  "openai-responses": [
    { method: "POST", path: /^\/responses$/ },
    { method: "GET", path: /^\/models$/ },
  ],
  // SDKs add /v1 themselves when the base URL stops at the host.
  "anthropic-messages": [
    { method: "POST", path: /^(\/v1)?\/messages(\/count_tokens)?$/ },
    { method: "GET", path: /^(\/v1)?\/models$/ },
  ],
  "google-gemini": [
    {
      method: "POST",
      path: /^(\/v1beta|\/v1)?\/models\/[A-Za-z0-9._-]+:(generateContent|streamGenerateContent|countTokens)$/,
    },
    { method: "GET", path: /^(\/v1beta|\/v1)?\/models$/ },
  ],
};

/** The base path of an upstream URL, without a trailing slash ("" for the host root). */
export function basePath(upstream: string): string {
  return new URL(upstream).pathname.replace(/\/+$/, "");
}

/** Null when the request may pass; otherwise why not. */
export function refuseRoute(api: ProviderApi, base: string, method: string, path: string): string | null {
  if (path.includes("..") || path.includes("//") || /%2e|%2f/i.test(path)) return "path is not canonical";
  if (base !== "" && !path.startsWith(`${base}/`)) return `path is outside the provider base ${base}`;
  const rest = path.slice(base.length);
  const rules = ROUTES[api];
  if (!rules.some((r) => r.path.test(rest))) return `route ${rest} is not a ${api} API route`;
  if (!rules.some((r) => r.path.test(rest) && r.method === method)) return `method ${method} is not allowed`;
  return null;
}

/** Headers that carry a credential, in the forms the provider SDKs send. */
export const CREDENTIAL_HEADERS = ["authorization", "x-api-key", "x-goog-api-key", "api-key"];

/** The credential a client presented, from whichever header or query key carried it. */
export function presentedKey(headers: Headers, url: URL): string | null {
  for (const name of CREDENTIAL_HEADERS) {
    const value = headers.get(name);
    if (value) return value.replace(/^Bearer\s+/i, "");
  }
  return url.searchParams.get("key");
}

/** Hop-by-hop and routing headers never cross the forwarder in either direction. */
const DROP = new Set([
  "host",
  "connection",
  "keep-alive",
  "proxy-authorization",
  "proxy-connection",
  "te",
  "trailer",
  "transfer-encoding",
  "upgrade",
  "content-length",
  // fetch decompresses; asking for identity keeps byte counts and headers honest.
  "accept-encoding",
  "content-encoding",
  "forwarded",
  "x-forwarded-for",
  "x-forwarded-host",
]);

/** The request headers for the provider: placeholder swapped for the real key, the rest copied. */
export function upstreamHeaders(headers: Headers, realKey: string | null): Headers {
  const out = new Headers();
  for (const [name, value] of headers) {
    if (DROP.has(name)) continue;
    if (CREDENTIAL_HEADERS.includes(name)) {
      if (realKey === null) continue;
      out.set(name, /^Bearer\s/i.test(value) ? `Bearer ${realKey}` : realKey);
      continue;
    }
    out.set(name, value);
  }
  out.set("accept-encoding", "identity");
  return out;
}

/** The response headers for the worker, with every spelling of the real key replaced by the placeholder. */
export function downstreamHeaders(headers: Headers, realKey: string | null, placeholder: string): Headers {
  const out = new Headers();
  for (const [name, value] of headers) {
    if (!DROP.has(name) && name !== "set-cookie") out.set(name, redactText(value, realKey, placeholder));
  }
  return out;
}

/** `host:port` for Deno's --allow-net, with the scheme's default port made explicit. */
export function netPermission(upstream: string): string {
  const url = new URL(upstream);
  const port = url.port || (url.protocol === "https:" ? "443" : "80");
  return `${url.hostname}:${port}`;
}
