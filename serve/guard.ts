/**
 * Who may talk to the dashboard. A page on another site must not read it
 * (DNS rebinding: a name that resolves to 127.0.0.1 still carries its own
 * Host) and must not drive it (cross-origin requests, CSRF). Pure: a request's
 * method, URL and headers in, a verdict out.
 */

export interface Binding {
  /** The address the server listens on. */
  hostname: string;
  port: number;
}

export interface GuardOptions {
  binding: Binding;
  /** The token every non-GET request must carry in `x-spot-csrf`. */
  csrfToken: string;
}

export type Verdict = { ok: true } | { ok: false; status: 400 | 403; code: string; message: string };

const LOOPBACK_NAMES = new Set(["127.0.0.1", "localhost", "[::1]", "::1"]);
const WILDCARD = new Set(["0.0.0.0", "::", "[::]"]);
const SAFE_METHODS = new Set(["GET", "HEAD"]);
export const CSRF_HEADER = "x-spot-csrf";

function isIpLiteral(host: string): boolean {
  return /^\d{1,3}(\.\d{1,3}){3}$/.test(host) || /^\[[0-9a-fA-F:.]+\]$/.test(host);
}

/** Splits "name:port" and "[v6]:port"; the port is null when absent. */
export function splitHost(value: string): { name: string; port: number | null } | null {
  const m = /^(\[[0-9a-f:.]+\]|[a-z0-9._-]+)(?::(\d{1,5}))?$/.exec(value.trim().toLowerCase());
  if (!m) return null;
  return { name: m[1], port: m[2] === undefined ? null : Number(m[2]) };
}

/**
 * A Host is allowed when it names the bound address (or, for a loopback bind,
 * any loopback name) with the bound port. A wildcard bind accepts IP literals,
 * which a rebinding attack cannot produce, since it needs a DNS name.
 */
export function hostAllowed(hostHeader: string, binding: Binding): boolean {
  const host = splitHost(hostHeader);
  if (!host) return false;
  if ((host.port ?? 80) !== binding.port) return false;
  const bound = binding.hostname.toLowerCase();
  if (LOOPBACK_NAMES.has(host.name)) return true;
  if (WILDCARD.has(bound)) return isIpLiteral(host.name);
  const boundName = bound.includes(":") && !bound.startsWith("[") ? `[${bound}]` : bound;
  return host.name === boundName;
}

function sameText(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return diff === 0;
}

function refuse(status: 400 | 403, code: string, message: string): Verdict {
  return { ok: false, status, code, message };
}

export function checkRequest(
  req: { method: string; url: string; headers: Headers },
  options: GuardOptions,
): Verdict {
  const host = req.headers.get("host") ?? new URL(req.url).host;
  if (!hostAllowed(host, options.binding)) {
    return refuse(
      403,
      "HOST_REFUSED",
      `Refused request for host "${host.slice(0, 100)}": spot serves only its own address`,
    );
  }
  const origin = req.headers.get("origin");
  if (origin !== null && origin !== `http://${host}`) {
    return refuse(403, "ORIGIN_REFUSED", `Refused cross-origin request from "${origin.slice(0, 100)}"`);
  }
  const site = req.headers.get("sec-fetch-site");
  const navigation = req.headers.get("sec-fetch-mode") === "navigate" && SAFE_METHODS.has(req.method);
  if (site !== null && site !== "same-origin" && site !== "none" && !navigation) {
    return refuse(
      403,
      "ORIGIN_REFUSED",
      `Refused ${site} request: only the dashboard's own page may call it`,
    );
  }
  if (!SAFE_METHODS.has(req.method)) {
    const token = req.headers.get(CSRF_HEADER) ?? "";
    if (!sameText(token, options.csrfToken)) {
      return refuse(403, "CSRF_REFUSED", `Refused ${req.method} without a valid ${CSRF_HEADER} token`);
    }
  }
  return { ok: true };
}

/** The headers every response carries: no inline script, no framing, no sniffing, no referrer. */
export const SECURITY_HEADERS: Record<string, string> = {
  "content-security-policy": [
    "default-src 'none'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self' data:",
    "connect-src 'self'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join("; "),
  "x-content-type-options": "nosniff",
  "x-frame-options": "DENY",
  "referrer-policy": "no-referrer",
  "cross-origin-opener-policy": "same-origin",
  "cross-origin-resource-policy": "same-origin",
};
