/**
 * POSIX path arithmetic, the subset spot uses, with node:path/posix's exact results (base/path_test.ts
 * compares the two on thousands of paths). Its own module because the first call into node:path starts
 * Deno's Node compatibility layer, about 8 ms of every verb's start-up (docs/performance.md); source files
 * import this, tests may use node:path.
 */

export const sep = "/";
export const delimiter = ":";

/** Resolves `.` and `..` in the segments of a path; `..` above the start is kept unless the path is absolute. */
function collapse(path: string, absolute: boolean): string {
  const out: string[] = [];
  for (const segment of path.split("/")) {
    if (segment === "" || segment === ".") continue;
    if (segment === "..") {
      if (out.length > 0 && out[out.length - 1] !== "..") out.pop();
      else if (!absolute) out.push("..");
      continue;
    }
    out.push(segment);
  }
  return out.join("/");
}

export function isAbsolute(path: string): boolean {
  return path.startsWith("/");
}

export function normalize(path: string): string {
  if (path === "") return ".";
  const absolute = isAbsolute(path);
  const trailing = path.endsWith("/");
  let body = collapse(path, absolute);
  if (body === "" && !absolute) body = ".";
  if (body !== "" && trailing) body += "/";
  return absolute ? `/${body}` : body;
}

export function join(...parts: string[]): string {
  const joined = parts.filter((p) => p !== "").join("/");
  return joined === "" ? "." : normalize(joined);
}

/** An absolute path: the parts from the right until one is absolute, then the working directory. */
export function resolve(...parts: string[]): string {
  let path = "";
  for (let i = parts.length - 1; i >= -1 && !isAbsolute(path); i--) {
    const part = i >= 0 ? parts[i] : Deno.cwd();
    if (part === "") continue;
    path = path === "" ? part : `${part}/${path}`;
  }
  return `/${collapse(path, true)}`;
}

export function dirname(path: string): string {
  if (path === "") return ".";
  const absolute = path.startsWith("/");
  let end = -1;
  let sawName = false;
  for (let i = path.length - 1; i >= 1; i--) {
    if (path[i] === "/") {
      if (sawName) {
        end = i;
        break;
      }
    } else sawName = true;
  }
  if (end === -1) return absolute ? "/" : ".";
  if (absolute && end === 1) return "//";
  return path.slice(0, end);
}

/** The last name in the path, trailing slashes ignored (node's suffix argument is left out: nothing uses it). */
export function basename(path: string): string {
  let end = path.length;
  while (end > 0 && path[end - 1] === "/") end--;
  if (end === 0) return "";
  const start = path.lastIndexOf("/", end - 1) + 1;
  return path.slice(start, end);
}

/** The path from `from` to `to`, both resolved first; "" when they are the same. */
export function relative(from: string, to: string): string {
  const a = resolve(from).split("/").filter(Boolean);
  const b = resolve(to).split("/").filter(Boolean);
  let common = 0;
  while (common < a.length && common < b.length && a[common] === b[common]) common++;
  return [...a.slice(common).map(() => ".."), ...b.slice(common)].join("/");
}

/** The path of a file: URL (node:url's fileURLToPath, for the POSIX paths spot has). */
export function fromFileUrl(url: string | URL): string {
  const parsed = new URL(url);
  if (parsed.protocol !== "file:") {
    throw new TypeError(`Cannot use "${parsed.href}" as a path: not a file: URL`);
  }
  if (/%2f/i.test(parsed.pathname)) {
    throw new TypeError(`Cannot use "${parsed.href}" as a path: it encodes a "/"`);
  }
  return decodeURIComponent(parsed.pathname);
}
