/** Resolves a command name to an absolute path the way a shell would, without running anything. */
import { delimiter, isAbsolute, join } from "../base/path.ts";

function isExecutableFile(path: string): boolean {
  try {
    const info = Deno.statSync(path);
    return info.isFile && ((info.mode ?? 0o111) & 0o111) !== 0;
  } catch {
    return false;
  }
}

/** The absolute path of `name` on `pathVar`, or null. Absolute names are checked as they are. */
export function which(name: string, pathVar: string): string | null {
  if (isAbsolute(name)) return isExecutableFile(name) ? name : null;
  if (name.includes("/")) return null;
  for (const dir of pathVar.split(delimiter)) {
    if (!dir || !isAbsolute(dir)) continue;
    const candidate = join(dir, name);
    if (isExecutableFile(candidate)) return candidate;
  }
  return null;
}
