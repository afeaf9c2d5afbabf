/**
 * The few files of the user's own CLI configuration a worker gets in its private home, so the providers and
 * logins the user set up keep working: never the rest of HOME. Config files (pi's `models.json`, a CLI's
 * settings) are copied for every run. Login files (OAuth tokens) are copied only for a profile that names no
 * key variable, since a keyed profile's key comes from spot; they are writable copies, because a CLI refreshes
 * its token in place, and the refreshed token is not written back to the user's file. spot writes its own
 * files after these, so where both name one file, spot's keys win (see `mergeHomeFile`).
 *
 * The locations are the ones each CLI documents. No real login is exercised here (no provider is reachable
 * from this machine); pi's `models.json` is, against the scripted model server.
 */
import { join } from "../base/path.ts";
import { piConfigDir } from "./pi_home.ts";

type EnvReader = (name: string) => string | undefined;

interface Source {
  /** The user's directory that holds the files, or null when it cannot be known. */
  dir: (env: EnvReader) => string | null;
  /** Where that directory is inside the private home. */
  to: string;
  config: string[];
  login: string[];
}

const under = (home: string | undefined, ...parts: string[]) => home ? join(home, ...parts) : null;
const xdg = (env: EnvReader, name: string, fallback: string[], ...parts: string[]) => {
  const base = env(name) || under(env("HOME"), ...fallback);
  return base ? join(base, ...parts) : null;
};

const SOURCES: Record<string, Source[]> = {
  pi: [{ dir: piConfigDir, to: ".pi/agent", config: ["models.json", "settings.json"], login: ["auth.json"] }],
  opencode: [
    {
      dir: (e) => xdg(e, "XDG_CONFIG_HOME", [".config"], "opencode"),
      to: ".config/opencode",
      config: ["opencode.json", "opencode.jsonc"],
      login: [],
    },
    {
      dir: (e) => xdg(e, "XDG_DATA_HOME", [".local", "share"], "opencode"),
      to: ".local/share/opencode",
      config: [],
      login: ["auth.json"],
    },
  ],
  kilo: [
    {
      dir: (e) => xdg(e, "XDG_CONFIG_HOME", [".config"], "kilo"),
      to: ".config/kilo",
      config: ["kilo.json", "opencode.json"],
      login: [],
    },
    {
      dir: (e) => xdg(e, "XDG_DATA_HOME", [".local", "share"], "kilo"),
      to: ".local/share/kilo",
      config: [],
      login: ["auth.json"],
    },
  ],
  codex: [{
    dir: (e) => e("CODEX_HOME") || under(e("HOME"), ".codex"),
    to: ".codex",
    config: ["config.toml"],
    login: ["auth.json"],
  }],
  claude: [
    {
      dir: (e) => e("CLAUDE_CONFIG_DIR") || under(e("HOME"), ".claude"),
      to: ".claude",
      config: ["settings.json"],
      login: [".credentials.json"],
    },
    { dir: (e) => under(e("HOME")), to: ".", config: [], login: [".claude.json"] },
  ],
  gemini: [{
    dir: (e) => under(e("HOME"), ".gemini"),
    to: ".gemini",
    config: ["settings.json"],
    login: ["oauth_creds.json", "google_accounts.json"],
  }],
  qwen: [{
    dir: (e) => under(e("HOME"), ".qwen"),
    to: ".qwen",
    config: ["settings.json"],
    login: ["oauth_creds.json"],
  }],
  kimi: [{ dir: (e) => under(e("HOME"), ".kimi"), to: ".kimi", config: ["config.toml"], login: [] }],
  qoder: [{ dir: (e) => under(e("HOME"), ".qoder"), to: ".qoder", config: ["settings.json"], login: [] }],
  trae: [{ dir: (e) => under(e("HOME"), ".trae"), to: ".trae", config: ["trae_cli.yaml"], login: [] }],
  codebuddy: [{
    dir: (e) => under(e("HOME"), ".codebuddy"),
    to: ".codebuddy",
    config: ["settings.json"],
    login: [],
  }],
  zcode: [{ dir: (e) => under(e("HOME"), ".zcode"), to: ".zcode", config: ["config.json"], login: [] }],
};

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
  for (const source of SOURCES[adapter] ?? []) {
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
 * What of a copied file the worker may see. pi's `models.json` can hold other providers' keys as literals:
 * only the profile's own provider is kept. Other files pass as they are. Pure.
 */
export function narrowHomeFile(adapter: string, to: string, text: string, provider: string): string {
  if (adapter !== "pi" || !to.endsWith("models.json")) return text;
  try {
    const parsed = JSON.parse(text) as { providers?: Record<string, unknown> };
    const own = parsed.providers?.[provider];
    return JSON.stringify({ ...parsed, providers: own === undefined ? {} : { [provider]: own } }, null, 2);
  } catch {
    // Not JSON: pi would refuse it too; nothing of it is shown.
    return "{}";
  }
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
