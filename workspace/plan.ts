/**
 * Where each ecosystem's dependencies come from, decided from facts about the
 * base revision and the source checkout. In order of preference: the source
 * checkout's own installed dirs when its lockfile is the base's (reuse); the
 * install command the base's lockfile implies, or the config's (setup); or
 * nothing, with the reason. Pure.
 */
import type { DependencySource, EcosystemPlan } from "../schemas/dependency_record.ts";

export interface DependencyFacts {
  /** Root lockfiles at the base revision, by name, with their git blob id. */
  baseLockfiles: Record<string, string>;
  /** The same names in the source checkout's working tree, when present. */
  workingLockfiles: Record<string, string>;
  /** Dependency dirs present in the source checkout, and whether git ignores each. */
  sourceDirs: Record<string, { ignored: boolean }>;
  /** `.yarnrc.yml` at the base: yarn 2+ (berry). */
  yarnBerry: boolean;
  /** Install tools found on PATH. */
  tools: Record<string, boolean>;
}

export interface DependencySettings {
  reuse: boolean;
  setup: "auto" | false | string;
}

interface LockRule {
  lockfiles: string[];
  /** The install tool: one tool per ecosystem may have a lockfile, or the lockfiles conflict. */
  tool: string;
  command: (facts: DependencyFacts) => string;
}

interface Ecosystem {
  name: "node" | "python";
  dirs: string[];
  rules: LockRule[];
  /** Lockfiles good enough to match installed dirs against, though they imply no install command. */
  reuseOnly: string[];
}

/** The pinata table: one command per lockfile, frozen to it. */
export const ECOSYSTEMS: Ecosystem[] = [
  {
    name: "node",
    dirs: ["node_modules"],
    rules: [
      {
        lockfiles: ["pnpm-lock.yaml"],
        tool: "pnpm",
        command: () => "pnpm install --frozen-lockfile --prefer-offline",
      },
      { lockfiles: ["bun.lock", "bun.lockb"], tool: "bun", command: () => "bun install --frozen-lockfile" },
      {
        lockfiles: ["yarn.lock"],
        tool: "yarn",
        command: (f) => f.yarnBerry ? "yarn install --immutable" : "yarn install --frozen-lockfile",
      },
      {
        lockfiles: ["package-lock.json", "npm-shrinkwrap.json"],
        tool: "npm",
        command: () => "npm ci --prefer-offline --no-audit --no-fund",
      },
    ],
    reuseOnly: [],
  },
  {
    name: "python",
    dirs: [".venv", "venv"],
    rules: [
      // The project itself is not installed: the checks must import the tree under test, not a copy.
      { lockfiles: ["uv.lock"], tool: "uv", command: () => "uv sync --frozen --no-install-project" },
      {
        lockfiles: ["poetry.lock"],
        tool: "poetry",
        command: () => "POETRY_VIRTUALENVS_IN_PROJECT=true poetry install --no-interaction --no-root",
      },
      { lockfiles: ["Pipfile.lock"], tool: "pipenv", command: () => "PIPENV_VENV_IN_PROJECT=1 pipenv sync" },
    ],
    reuseOnly: ["requirements.txt"],
  },
];

export interface DependencyPlan {
  ecosystems: EcosystemPlan[];
  /** Source-checkout dirs to show as they are, repo-relative. */
  reuse: string[];
  /** The one setup command to run (joined when several ecosystems need one), or null. */
  setupCommand: string | null;
  /** Lockfiles the setup depends on, name → blob id (with the command, its cache key). */
  setupInputs: Record<string, string>;
}

function planOne(eco: Ecosystem, facts: DependencyFacts, settings: DependencySettings) {
  const locks = [...eco.rules.flatMap((r) => r.lockfiles), ...eco.reuseOnly].filter((l) =>
    facts.baseLockfiles[l]
  );
  const rules = eco.rules.filter((r) => r.lockfiles.some((l) => facts.baseLockfiles[l]));
  const dir = eco.dirs.find((d) => facts.sourceDirs[d]);
  if (locks.length === 0 && !dir) return null;
  const plan = (source: DependencySource, reason: string, extra: Partial<EcosystemPlan> = {}) => ({
    ecosystem: eco.name,
    source,
    reason,
    ...extra,
  });
  if (rules.length > 1) {
    const names = rules.flatMap((r) => r.lockfiles.filter((l) => facts.baseLockfiles[l]));
    return { plan: plan("none", `conflicting lockfiles at the base revision: ${names.join(", ")}`) };
  }
  const lock = locks[0];
  const lockfile = lock ? { path: lock, oid: facts.baseLockfiles[lock] } : undefined;
  if (!lock) {
    return {
      plan: plan(
        "none",
        `${dir} is installed in the source checkout, but the base revision has no lockfile to match it against`,
      ),
    };
  }
  if (
    settings.reuse && dir && facts.sourceDirs[dir].ignored &&
    facts.workingLockfiles[lock] === facts.baseLockfiles[lock]
  ) {
    return {
      plan: plan("reuse", `the source checkout's ${dir} was installed from the base's ${lock}`, { lockfile }),
      reuse: dir,
    };
  }
  const why = !dir
    ? `no ${eco.dirs.join(" or ")} in the source checkout`
    : !facts.sourceDirs[dir].ignored
    ? `${dir} is not ignored by git`
    : !settings.reuse
    ? "reuse is off in the config"
    : `the source checkout's ${lock} differs from the base's`;
  if (settings.setup === false) {
    return { plan: plan("none", `${why}, and setup is off in the config`, { lockfile }) };
  }
  if (settings.setup !== "auto") {
    return {
      plan: plan("setup", `${why}: the config's setup command`, { lockfile, command: settings.setup }),
    };
  }
  const rule = rules[0];
  if (!rule) return { plan: plan("none", `${why}, and ${lock} implies no install command`, { lockfile }) };
  if (!facts.tools[rule.tool]) {
    return {
      plan: plan("none", `${why}, and ${rule.tool} is not on PATH to install from ${lock}`, { lockfile }),
    };
  }
  const command = rule.command(facts);
  return { plan: plan("setup", `${why}: installing from ${lock}`, { lockfile, command }) };
}

export function planDependencies(facts: DependencyFacts, settings: DependencySettings): DependencyPlan {
  const ecosystems: EcosystemPlan[] = [];
  const reuse: string[] = [];
  for (const eco of ECOSYSTEMS) {
    const one = planOne(eco, facts, settings);
    if (!one) continue;
    ecosystems.push(one.plan);
    if (one.reuse) reuse.push(one.reuse);
  }
  const needing = ecosystems.filter((e) => e.source === "setup");
  // A configured command is one command for the whole project, run once however many ecosystems need it.
  const custom = settings.setup !== "auto" && settings.setup !== false;
  if (custom && needing.length === 0 && ecosystems.length === 0) {
    ecosystems.push({
      ecosystem: "custom",
      source: "setup",
      reason: "the config's setup command",
      command: settings.setup as string,
    });
  }
  const commands = [...new Set(ecosystems.filter((e) => e.source === "setup").map((e) => e.command!))];
  const setupInputs: Record<string, string> = {};
  for (const e of ecosystems) {
    if (e.source === "setup" && e.lockfile) setupInputs[e.lockfile.path] = e.lockfile.oid;
  }
  return { ecosystems, reuse, setupCommand: commands.length ? commands.join(" && ") : null, setupInputs };
}
