/**
 * What the egress proxy lets out of a sandbox, as pure rules: the first
 * line of a proxy request (`CONNECT host:port` for HTTPS, an absolute URL
 * for plain HTTP) is read, its host and port are held against an allowlist
 * of `host:port` entries, and
 * everything else is refused. The proxy never sees inside a TLS tunnel: it
 * decides by destination only.
 */

export interface ProxyTarget {
  method: string;
  host: string;
  port: number;
  /** For plain HTTP: the request line rewritten to origin form (`GET /path HTTP/1.1`). */
  originLine?: string;
}

export type ParsedHead = { ok: true; target: ProxyTarget } | { ok: false; reason: string };

const HOST = /^[A-Za-z0-9.-]+$|^\[[0-9A-Fa-f:.]+\]$/;

function hostPort(authority: string, defaultPort: number): { host: string; port: number } | null {
  const m = authority.match(/^(\[[^\]]+\]|[^:]+)(?::(\d{1,5}))?$/);
  if (!m || !HOST.test(m[1])) return null;
  const port = m[2] === undefined ? defaultPort : Number(m[2]);
  if (!Number.isInteger(port) || port < 1 || port > 65535) return null;
  return { host: m[1].toLowerCase().replace(/^\[|\]$/g, ""), port };
}

/** Reads the request line of a proxy request. */
export function parseProxyRequest(requestLine: string): ParsedHead {
  const parts = requestLine.trim().split(" ");
  if (parts.length !== 3 || !/^HTTP\/1\.[01]$/.test(parts[2])) {
    return { ok: false, reason: "not an HTTP/1 request" };
  }
  const [method, target, version] = parts;
  if (method === "CONNECT") {
    const hp = hostPort(target, 443);
    return hp
      ? { ok: true, target: { method, ...hp } }
      : { ok: false, reason: `bad CONNECT target ${target}` };
  }
  let url: URL;
  try {
    url = new URL(target);
  } catch {
    return { ok: false, reason: "a proxy request needs an absolute URL or CONNECT" };
  }
  if (url.protocol !== "http:") {
    return { ok: false, reason: `scheme ${url.protocol} is not proxied (use CONNECT)` };
  }
  if (url.username || url.password) return { ok: false, reason: "credentials in the URL are refused" };
  const hp = hostPort(url.host, 80);
  if (!hp) return { ok: false, reason: `bad host ${url.host}` };
  return {
    ok: true,
    target: { method, ...hp, originLine: `${method} ${url.pathname}${url.search} ${version}` },
  };
}

/** Exact `host:port` entries: the same list Deno's --allow-net gives the proxy, so both checks agree. */
export function allowed(allowlist: readonly string[], host: string, port: number): boolean {
  return allowlist.some((entry) => entry.toLowerCase() === `${host}:${port}`);
}

/** An allowlist entry is `host:port`, nothing wider: no wildcard, no scheme, no path. */
export const ALLOW_ENTRY = /^[A-Za-z0-9.-]+:\d{1,5}$/;
