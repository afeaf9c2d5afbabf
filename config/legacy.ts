/**
 * Keys of the original `pi-worker` config that spot names differently or no
 * longer uses. Pure: the parsed file in, the same config in spot's names out,
 * with one note per legacy key (what it became, or why it is ignored) and the
 * edits that make the same change to the file's text (`spot config migrate`).
 * A key neither tool knows is left alone, so validation still refuses it.
 */
import type { JsonPath, Moved } from "../schemas/locate.ts";

/** One legacy key and what became of it. */
export interface LegacyNote {
  /** The old key as written; `profiles.*.x` when several profiles have it. */
  key: string;
  /** Where its value lives now; null when spot ignores it. */
  newKey: string | null;
  message: string;
  /** Where the (first) old key is in the file. */
  path: JsonPath;
}

/** A change to the file: set `path` to `value`, remove it, or rename its key in place. */
export type LegacyEdit =
  | { path: JsonPath; value: unknown }
  | { path: JsonPath; remove: true }
  | { path: JsonPath; renameTo: string };

export interface LegacyMapping {
  value: unknown;
  notes: LegacyNote[];
  edits: LegacyEdit[];
  moved: Moved[];
}

type Json = Record<string, unknown>;

const isObject = (v: unknown): v is Json => typeof v === "object" && v !== null && !Array.isArray(v);

/** Kimi CLI's provider types, which the original passed through, as spot's wire APIs. */
const KIMI_TYPES: Record<string, string | null> = {
  kimi: null,
  openai_legacy: "openai-completions",
  openai_responses: "openai-responses",
  anthropic: "anthropic-messages",
  gemini: "google-gemini",
  google_genai: "google-gemini",
};

const DROPPED_TOP: Record<string, string> = {
  minimumPiVersion: "spot checks each worker CLI against its own adapter's minimum version " +
    "(spot doctor, spot detect), not one pi version for all",
  retryDelaysMs: "spot retries a transient worker failure once, without a delay, then follows the " +
    "profile's fallbackProfiles; profiles.<name>.maxRetries sets the worker CLI's own retry budget",
};

const DROPPED_PROFILE: Record<string, string> = {
  monthlyPlan: "spot prices a worker turn from the cost its CLI reports, or from the profile's pricing " +
    "(USD per million tokens); a flat monthly plan is not used",
  balanceAdapter: "spot does not query provider balances (the original shipped no balance adapter)",
  balanceConfig: "spot does not query provider balances (the original shipped no balance adapter)",
};

const show = (path: JsonPath) => path.join(".");

class Mapper {
  readonly notes: LegacyNote[] = [];
  readonly edits: LegacyEdit[] = [];
  readonly moved: Moved[] = [];
  constructor(readonly root: Json) {}

  get(path: JsonPath): unknown {
    let node: unknown = this.root;
    for (const key of path) node = isObject(node) ? node[key] : undefined;
    return node;
  }

  set(path: JsonPath, value: unknown, record = true): void {
    let node = this.root;
    for (const key of path.slice(0, -1)) {
      if (!isObject(node[key])) node[key] = {};
      node = node[key] as Json;
    }
    node[path[path.length - 1]] = value;
    if (record) this.edits.push({ path, value });
  }

  remove(path: JsonPath, record = true): void {
    const parent = this.get(path.slice(0, -1));
    if (isObject(parent)) delete parent[path[path.length - 1]];
    if (record) this.edits.push({ path, remove: true });
  }

  note(path: JsonPath, newKey: string | null, message: string, key = show(path)): void {
    this.notes.push({ key, newKey, message, path });
  }

  /** A key renamed within its object: its value moves, unless the new key is set too, which wins. */
  rename(from: JsonPath, to: JsonPath): void {
    if (this.get(from) === undefined) return;
    if (this.get(to) !== undefined) {
      this.note(from, show(to), `ignored: ${show(to)} is also set and wins`);
      this.remove(from);
      return;
    }
    this.set(to, this.get(from), false);
    this.remove(from, false);
    this.edits.push({ path: from, renameTo: String(to[to.length - 1]) });
    this.moved.push({ from, to });
    this.note(from, show(to), `deprecated: renamed to ${show(to)}`);
  }
}

/** `limits.piMaxTurns` capped the original's qoder adapter only: it becomes each qoder profile's own cap. */
function piMaxTurns(m: Mapper, profiles: [string, Json][]): void {
  const from = ["limits", "piMaxTurns"];
  const value = m.get(from);
  if (value === undefined) return;
  const qoder = profiles.filter(([, p]) => p.adapter === "qoder");
  const targets = qoder.filter(([, p]) => !isObject(p.limits) || p.limits.maxTurns === undefined);
  for (const [name] of targets) {
    const to = ["profiles", name, "limits", "maxTurns"];
    m.set(to, value);
    m.moved.push({ from, to });
  }
  const newKey = "profiles.<name>.limits.maxTurns";
  if (targets.length > 0) {
    const names = targets.map(([n]) => n).join(", ");
    m.note(
      from,
      newKey,
      `deprecated: moved to ${newKey} of ${names} (the original applied it to qoder only)`,
    );
  } else {
    const why = qoder.length > 0
      ? "every qoder profile sets its own limits.maxTurns"
      : "no profile uses qoder";
    m.note(from, newKey, `ignored: the original applied it to qoder profiles only, and ${why}`);
  }
  m.remove(from);
}

/** Per-profile keys spot drops: one note per key, naming the profiles that had it. */
function droppedProfileKeys(m: Mapper, profiles: [string, Json][]): void {
  for (const [key, why] of Object.entries(DROPPED_PROFILE)) {
    const having = profiles.filter(([, p]) => p[key] !== undefined).map(([name]) => name);
    if (having.length === 0) continue;
    const label = having.length === 1 ? `profiles.${having[0]}.${key}` : `profiles.*.${key}`;
    const where = having.length === 1 ? "" : ` (in ${having.join(", ")})`;
    m.note(["profiles", having[0], key], null, `ignored${where}: ${why}`, label);
    for (const name of having) m.remove(["profiles", name, key]);
  }
}

/** Values the original's adapters read differently: Kimi's own provider types, qoder's default model. */
function profileValues(m: Mapper, profiles: [string, Json][]): void {
  for (const [name, p] of profiles) {
    const path = ["profiles", name, "providerType"];
    const type = p.providerType;
    if (typeof type === "string" && Object.hasOwn(KIMI_TYPES, type)) {
      const mapped = p.adapter === "kimi" ? KIMI_TYPES[type] : null;
      if (mapped) {
        m.set(path, mapped);
        m.note(path, show(path), `deprecated: Kimi's type "${type}" is spot's "${mapped}"`);
      } else {
        const why = p.adapter === "kimi"
          ? "spot's kimi adapter chooses Kimi's own protocol from the provider name (kimi…, moonshot)"
          : "the original read providerType for its kimi adapter only";
        m.remove(path);
        m.note(path, null, `ignored: "${type}" is a Kimi CLI type; ${why}`);
      }
    }
    if (p.adapter === "qoder" && p.model === "qoder-default") {
      const model = ["profiles", name, "model"];
      m.set(model, "default");
      m.note(
        model,
        show(model),
        'deprecated: "qoder-default" is now "default" (no --model: the account\'s own)',
      );
    }
  }
}

/**
 * The original's older subscription had only a plan and a monthly price; spot needs the weekly allowance to
 * use it at all, so such a block is dropped (before the rename, so its key gets one note).
 */
function oldSubscriptions(m: Mapper): void {
  for (const key of ["parentSubscription", "codexSubscription"]) {
    const sub = m.get([key]);
    if (!isObject(sub) || sub.weeklyAllowanceCredits !== undefined) continue;
    if (Object.keys(sub).some((k) => k !== "plan" && k !== "monthlyUsd")) continue;
    if (key === "codexSubscription" && m.get(["parentSubscription"]) !== undefined) continue;
    m.note(
      [key],
      null,
      "ignored: it has no weeklyAllowanceCredits, without which spot cannot express credits as a share " +
        "of the plan; add weeklyAllowanceCredits to a parentSubscription to keep it",
    );
    m.remove([key]);
  }
}

/** Maps every legacy key of a parsed config; anything that is not an object is returned as is. */
export function mapLegacyConfig(raw: unknown): LegacyMapping {
  if (!isObject(raw)) return { value: raw, notes: [], edits: [], moved: [] };
  const m = new Mapper(structuredClone(raw));
  m.rename(["codexRateCard"], ["parentRateCard"]);
  oldSubscriptions(m);
  m.rename(["codexSubscription"], ["parentSubscription"]);
  for (const [key, why] of Object.entries(DROPPED_TOP)) {
    if (m.root[key] === undefined) continue;
    m.note([key], null, `ignored: ${why}`);
    m.remove([key]);
  }
  if (isObject(m.root.limits)) m.rename(["limits", "piTimeoutSeconds"], ["limits", "workerTimeoutSeconds"]);
  const profiles = isObject(m.root.profiles)
    ? Object.entries(m.root.profiles).filter((e): e is [string, Json] => isObject(e[1]))
    : [];
  if (isObject(m.root.limits)) piMaxTurns(m, profiles);
  droppedProfileKeys(m, profiles);
  profileValues(m, profiles);
  return { value: m.root, notes: m.notes, edits: m.edits, moved: m.moved };
}
