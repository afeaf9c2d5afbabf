/**
 * The few files of the user's own CLI configuration a worker gets in its private home, so the providers and
 * logins the user set up keep working: never the rest of HOME. Config files (pi's `models.json`, a CLI's
 * settings) are copied for every run. Login files (OAuth tokens) are copied only for a profile that names no
 * key variable, since a keyed profile's key comes from spot; they are writable copies, because a CLI refreshes
 * its token in place, and the refreshed token is not written back to the user's file. spot writes its own
 * files after these, so where both name one file, spot's keys win (see `mergeHomeFile`).
 *
 * Which files, and where, is the `homeFiles` entry of each CLI's record (adapters/clis/): the locations each
 * CLI documents. No real login is exercised here (no provider is reachable from this machine); pi's
 * `models.json` is, against the scripted model server.
 */
import { join } from "../base/path.ts";
import { cliRecord } from "../adapters/clis/mod.ts";

type EnvReader = (name: string) => string | undefined;

export interface HomeCopy {
  from: string;
  /** Relative to the private home. */
  to: string;
  /** A login file: the CLI may rewrite it. */
  login: boolean;
}

/** The files to copy for an adapter, whether or not they exist. Pure apart from reading `env`. */
export function homeCopies(adapter: string, options: { env: EnvReader; keyed: boolean }): HomeCopy[] {
  const out: HomeCopy[] = [];
  for (const source of cliRecord(adapter)?.homeFiles ?? []) {
    const dir = source.dir(options.env);
    if (!dir) continue;
    const names = [...source.config, ...(options.keyed ? [] : source.login)];
    for (const name of names) {
      out.push({ from: join(dir, name), to: join(source.to, name), login: source.login.includes(name) });
    }
  }
  return out;
}

/**
 * What of a copied file the worker may see: what the CLI's record keeps of it (pi's `models.json` can hold
 * other providers' keys as literals, so only the profile's own provider is kept). Other files pass as they
 * are. Pure.
 */
export function narrowHomeFile(adapter: string, to: string, text: string, provider: string): string {
  const narrow = cliRecord(adapter)?.narrowHomeFile;
  return narrow ? narrow(to, text, provider) : text;
}

/**
 * The content of a file both the user and spot write: a JSON object gets spot's top-level keys over the
 * user's, anything else is spot's. Pure.
 */
export function mergeHomeFile(user: string, spot: string): string {
  try {
    const mine = JSON.parse(spot);
    const theirs = JSON.parse(user);
    const isObject = (v: unknown) => v !== null && typeof v === "object" && !Array.isArray(v);
    if (isObject(mine) && isObject(theirs)) return JSON.stringify({ ...theirs, ...mine }, null, 2);
  } catch {
    // Not JSON on either side: spot's file as it is.
  }
  return spot;
}
