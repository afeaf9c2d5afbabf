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

/**
 * `host:port` entries, and `*.domain:port` for the domain and every name under it: what Deno's --allow-net
 * means by the same list, which the proxy also runs under, so both checks agree.
 */
export function allowed(allowlist: readonly string[], host: string, port: number): boolean {
  const name = host.toLowerCase();
  return allowlist.some((raw) => {
    const entry = raw.toLowerCase();
    if (!entry.startsWith("*.")) return entry === `${name}:${port}`;
    const cut = entry.lastIndexOf(":");
    const domain = entry.slice(2, cut);
    return entry.slice(cut + 1) === String(port) && (name === domain || name.endsWith(`.${domain}`));
  });
}

/**
 * The forwarder's address inside a sandbox that also has the egress proxy (a research turn behind the
 * forwarder). A CLI whose proxy agent ignores NO_PROXY sends its provider calls to the proxy for this address;
 * they are carried to spot's forwarder, never to whatever listens there on the host.
 */
export interface ProviderRoute {
  host: string;
  port: number;
}

/** What the proxy does with a request: the forwarder (provider route), out to its host, or a refusal. */
export type Decision = "provider" | "allowed" | "refused";

export function decide(
  target: { host: string; port: number },
  allowlist: readonly string[],
  provider?: ProviderRoute,
): Decision {
  // First: an allowlist that happens to name this address must not send it to the host instead.
  if (provider && target.host === provider.host && target.port === provider.port) return "provider";
  return allowed(allowlist, target.host, target.port) ? "allowed" : "refused";
}

/**
 * Where a listed *name* must not lead: the host's own loopback, link-local addresses (the cloud metadata
 * service at 169.254.169.254) and the unspecified address. A name's DNS can answer anything (rebinding, a
 * wildcard-DNS service under a `*.` entry); reaching the machine spot runs on takes naming the address itself.
 * Private networks (10/8, 192.168/16, fc00::/7) stay reachable by name: internal registries and model
 * servers live there.
 */
export function hostLocalAddress(ip: string): boolean {
  const v4 = /^(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(ip.replace(/^::ffff:/i, ""));
  if (v4) {
    const [a, b] = [Number(v4[1]), Number(v4[2])];
    return a === 0 || a === 127 || (a === 169 && b === 254);
  }
  const v6 = ip.toLowerCase().replace(/^\[|\]$/g, "");
  return v6 === "::1" || v6 === "::" || /^fe[89ab]/.test(v6);
}

/** A request may go where its host led when the host was an address (or localhost), or did not lead home. */
export function resolvedAllowed(host: string, peer: string): boolean {
  const h = host.toLowerCase();
  const literal = h === "localhost" || /^\d+\.\d+\.\d+\.\d+$/.test(h) || h.includes(":");
  return literal || !hostLocalAddress(peer);
}

/** An allowlist entry is `host:port`, nothing wider: no wildcard, no scheme, no path. */
export const ALLOW_ENTRY = /^[A-Za-z0-9.-]+:\d{1,5}$/;
