/**
 * What spot knows about one worker CLI, and how it launches it: one record per CLI, one file per record
 * (`adapters/clis/<name>.ts`, listed by the generated index `mod.ts`). Detection, the lazy adapter loader,
 * the settings and sessions tables, the egress plan, the home files a worker gets and the default profiles
 * are all read from the records; nothing else lists the CLIs. A record is cheap to import: its launch plan is
 * a small pure function, and its stream reader (adapters/streams/, the large part) is imported only when a
 * run needs it (`reader`). The adapter a run uses is built from the record by `defineAdapter`.
 */
import type { z } from "zod";
import { join } from "../../base/path.ts";
import type { Profile } from "../../schemas/config.ts";
import type { DetectInfo, LaunchPlan, LaunchSpec, ProviderType, WorkerAdapter } from "../types.ts";

/** A profile as the default config writes it (defaults filled in by the schema). */
export type ProfileInput = z.input<typeof Profile>;

/** The profile settings spot routes to a CLI, as the profile writes them. */
export type SettingKey = "reasoningEffort" | "maxContextSize" | "maxTurns";

/** How a CLI takes a setting: a flag, an env variable, or a key in the config file spot writes for it. */
export type SettingRoute =
  | { via: "flag"; name: string; values?: readonly string[] }
  | { via: "env"; name: string }
  | {
    via: "config";
    /** The key in the CLI's own config file, as documentation. */
    name: string;
    values?: readonly string[];
    /** spot writes that entry only when it declares the provider itself, which needs a baseUrl. */
    needsBaseUrl?: boolean;
  }
  | { via: "none"; why: string };

export type AdapterSettings = Readonly<Record<SettingKey, SettingRoute>>;

/** Whether a CLI can take a follow-up turn (`spot agent send`). */
export type SessionSupport = { resumes: true } | { resumes: false; why: string };

/** A provider's API root, for a keyed profile that names the provider but no baseUrl. */
export interface Endpoint {
  baseUrl: string;
  providerType: ProviderType;
}

type EnvReader = (name: string) => string | undefined;

/** One directory of the user's own configuration of the CLI, and the files a worker's private home gets. */
export interface HomeFiles {
  /** The user's directory, or null when it cannot be known (no HOME). */
  dir: (env: EnvReader) => string | null;
  /** Where that directory is inside the private home. */
  to: string;
  /** Copied for every run. */
  config: readonly string[];
  /** Login files (OAuth tokens): copied only for a profile that names no key variable. */
  login: readonly string[];
}

/** How the CLI reaches its provider. */
export type CliNetwork =
  /** Needs no network at all. */
  | { readonly offline: true }
  | {
    /** The launch plan passes a profile's `baseUrl` on, so the CLI can run behind the forwarder. */
    readonly takesBaseUrl: boolean;
    /** `host:port` the CLI reaches for its own service and login when it is given no base URL. */
    readonly hosts: readonly string[];
  };

export interface CliRecord {
  /** The adapter name a profile writes; the record is `adapters/clis/<name>.ts`, exporting `<name>Cli`. */
  readonly name: string;
  /** Where `spot detect` lists it and the default config puts its profiles (ascending; ties by name). */
  readonly listed: number;
  /** The CLI as people call it. */
  readonly title: string;
  /** Binary looked up on PATH unless the profile or `PI_WORKER_<NAME>_BIN` names one. */
  readonly defaultBinary: string;
  /** How `spot detect` finds and asks the CLI; `alsoNamed` lists the other builds (the CN ones). */
  readonly detect: DetectInfo;
  /** How a person installs it, shown where it is missing. */
  readonly install: string;
  /** Ships inside spot: never probed by `spot detect`, never offered by the picker, needs no key. */
  readonly builtIn?: boolean;
  /** See `WorkerAdapter.selfReviewReadOnly`. */
  readonly selfReviewReadOnly: "cli" | "nobody";
  /** The CLI's own web tools, given to a job's research turn; absent: none spot can give. */
  readonly webTools?: readonly string[];
  readonly sessions: SessionSupport;
  /** Which profile settings the CLI can take, and how (docs/config.md prints the table). */
  readonly settings: AdapterSettings;
  readonly network: CliNetwork;
  readonly homeFiles: readonly HomeFiles[];
  /** What of a copied home file (`to`, relative to the private home) the worker may see; absent: all of it. */
  readonly narrowHomeFile?: (to: string, text: string, provider: string) => string;
  /** Providers the CLI's own vendor serves, by the name a profile gives them. */
  readonly endpoints?: Readonly<Record<string, Endpoint>>;
  /** The profiles the default config ships for this CLI, by name. */
  readonly profiles?: Readonly<Record<string, ProfileInput>>;
  /** The launch plan: pure, from the run's facts to argv, env and the files the CLI is given. */
  readonly plan: (spec: LaunchSpec) => LaunchPlan;
  /** The reader of the CLI's output stream, imported when a run needs it. */
  readonly reader: () => Promise<StreamReader>;
}

/** A CLI's output read as spot's events, line by line, and the turn's verdict at its end. */
export type StreamReader = Pick<WorkerAdapter, "parseLine" | "finish">;

/** The adapter of a record: its facts and plan from the record, given its stream reader. */
export function defineAdapter(record: CliRecord, reader: StreamReader): WorkerAdapter {
  return {
    name: record.name,
    defaultBinary: record.defaultBinary,
    selfReviewReadOnly: record.selfReviewReadOnly,
    detect: record.detect,
    ...(record.webTools ? { webTools: record.webTools } : {}),
    plan: record.plan,
    parseLine: reader.parseLine,
    finish: reader.finish,
  };
}

/** A route for a setting the CLI cannot take, with the reason config load prints. */
export const noRoute = (why: string): SettingRoute => ({ via: "none", why });

/** The row of a CLI that takes none of the settings. */
export function noSettings(cli: string): AdapterSettings {
  const why = `${cli} has no flag, variable or config key spot can set for it`;
  return { reasoningEffort: noRoute(why), maxContextSize: noRoute(why), maxTurns: noRoute(why) };
}

/** pi's --thinking levels and codex's model_reasoning_effort values: no "max". */
export const UP_TO_XHIGH = ["minimal", "low", "medium", "high", "xhigh"] as const;

/** Why a CLI that keeps its sessions in HOME cannot resume one: every attempt gets a fresh private HOME. */
export const SESSIONS_IN_PRIVATE_HOME: SessionSupport = {
  resumes: false,
  why: "spot has no way to resume its sessions: whatever it keeps lives in the " +
    "private HOME spot gives each attempt, which the next attempt does not get",
};

/** `$HOME/<parts>`, or null without HOME. */
export function underHome(env: EnvReader, ...parts: string[]): string | null {
  const home = env("HOME");
  return home ? join(home, ...parts) : null;
}

/** An XDG base directory (`$XDG_CONFIG_HOME`, else `$HOME/<fallback>`) with `parts` under it. */
export function xdgDir(
  env: EnvReader,
  name: "XDG_CONFIG_HOME" | "XDG_DATA_HOME",
  fallback: readonly string[],
  ...parts: string[]
): string | null {
  const base = env(name) || underHome(env, ...fallback);
  return base ? join(base, ...parts) : null;
}

/** The common case: one dot-directory under HOME, with its config files and no login. */
export function dotDir(dir: string, config: readonly string[], login: readonly string[] = []): HomeFiles {
  return { dir: (env) => underHome(env, dir), to: dir, config, login };
}
