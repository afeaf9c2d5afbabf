/**
 * `doctor`: can this machine run a task with the profile routing would pick,
 * before anything is written? It spends nothing: no model request is made,
 * and `--probe` only asks the CLI for its model list.
 */
import { dirname, resolve } from "../base/path.ts";
import { pathExists } from "../store/files.ts";
import { cliRecord } from "../adapters/clis/mod.ts";
import { SpotError } from "../errors.ts";
import { git } from "../git/git.ts";
import { parseChoice, type Resolution, resolveChoice } from "../sandbox/choose.ts";
import { hostHere, hostSandbox } from "../isolation/run_sandbox.ts";
import { binaryEnvName } from "../registry/locate.ts";
import { probeCli } from "../registry/probe.ts";
import { detectCaller } from "../routing/caller.ts";
import type { SpotContext } from "../store/context.ts";
import { readContract } from "../config/contract_load.ts";
import { requireDirectory } from "../config/contract_resolve.ts";
import type { RoutableTask } from "../routing/difficulty.ts";
import type { Check } from "./check.ts";
export type { Check };
import { credentialCheck, piProviderCheck } from "./keys.ts";
import { dependencyCheck, outlookHere } from "./dependencies.ts";
import { networkCheck } from "./network.ts";
import { queueCheck } from "./queue.ts";
import { selectProfile } from "../routing/select_profile.ts";
import { readyHere } from "./profile_ready.ts";
import { checkProgramChecks } from "./check_programs.ts";

export interface DoctorOptions {
  task?: string;
  profile?: string;
  model?: string;
  /** Also list the CLI's models and look for the profile's (no model request is made). */
  probe?: boolean;
  /** The sandbox to judge for, as `prepare --sandbox` takes it; the config's when absent. */
  sandbox?: string;
  /** Names of the environment's variables, for the similar-name hint. */
  envNames?: () => string[];
}

/** What routing reads of a task, when doctor has none: a small low-risk one. */
const NEUTRAL_TASK: RoutableTask = {
  goal: "(no task given)",
  risk: "low",
  acceptanceCriteria: ["-"],
  verification: [{ argv: ["true"], timeoutSeconds: 1 }],
  constraints: [],
  requiredCapabilities: ["text", "code"],
};

/**
 * Whether spot could write in `dir`, without making it: doctor only looks, so a directory not made yet is
 * judged by the nearest one above it that exists (a probe file is written there and removed at once).
 */
async function writable(name: string, dir: string): Promise<Check> {
  let at = dir;
  while (!pathExists(at) && dirname(at) !== at) at = dirname(at);
  const detail = at === dir ? dir : `${dir} (not made yet; ${at} is writable)`;
  try {
    const probe = `${at}/.doctor-${crypto.randomUUID()}`;
    await Deno.writeTextFile(probe, "", { createNew: true });
    await Deno.remove(probe);
    return { name, ok: true, detail };
  } catch (error) {
    return {
      name,
      ok: false,
      detail: `${at} is not writable: ${(error as Error).message}`,
      fix: `make ${at} writable`,
    };
  }
}

async function baseChecks(ctx: SpotContext, sandbox: Resolution): Promise<Check[]> {
  const gitVersion = await git(["--version"], { cwd: ctx.cwd, allowFailure: true }).catch(() => null);
  return [
    { name: "deno", ok: true, detail: Deno.version.deno },
    { name: "git", ok: gitVersion?.exitCode === 0, detail: gitVersion?.stdout.trim() || "git not found" },
    await writable("state dir", ctx.paths.stateRoot),
    await writable("cache dir", ctx.paths.cacheRoot),
    sandbox.ok
      ? {
        name: "sandbox",
        ok: true,
        detail: `${sandbox.backend} (${sandbox.level})`,
      }
      : { name: "sandbox", ok: false, detail: sandbox.reason, fix: sandbox.fix },
  ];
}

async function binaryChecks(
  ctx: SpotContext,
  adapterName: string,
  profile: { binary?: string; model: string },
  options: DoctorOptions,
): Promise<Check[]> {
  const adapter = cliRecord(adapterName);
  if (!adapter) return [{ name: "adapter", ok: false, detail: `no adapter named "${adapterName}"` }];
  const cli = await probeCli(adapterName, adapter, { env: ctx.env, profileBinary: profile.binary });
  const out: Check[] = [{ name: "adapter", ok: true, detail: adapterName }];
  if (!cli.binary) {
    return [...out, {
      name: "worker binary",
      ok: false,
      detail: cli.error ?? "not found",
      fix: `install ${adapter.defaultBinary} (${adapter.install}), or set ${
        binaryEnvName(adapterName)
      } to its path`,
    }];
  }
  out.push({ name: "worker binary", ok: true, detail: cli.binary });
  if (cli.minimumVersion) {
    out.push({
      name: "worker version",
      ok: cli.versionOk !== false,
      warn: cli.versionOk === null,
      detail: `${cli.version ?? "unknown"} (minimum ${cli.minimumVersion})`,
      fix: cli.versionOk === false ? `upgrade ${adapterName} to ${cli.minimumVersion} or later` : undefined,
    });
  }
  if (options.probe && adapter.detect?.modelListArgs) {
    const listed = cli.models.some((m) => m.id === profile.model || m.id.endsWith(`/${profile.model}`));
    out.push({
      name: "model listed",
      ok: listed,
      detail: listed ? profile.model : `${profile.model} is not among ${cli.models.length} listed model(s)`,
    });
  }
  return out;
}

/** Why doctor without `--task` checks the profile it checks. */
const DEFAULT_REASON = "no --task: doctor checks defaultProfile, as pi-worker did " +
  "(pass --task to check the profile prepare would route that task to)";

/** The profile doctor checks: `--profile`; else with `--task`, the one prepare would route to; else `defaultProfile`. */
function chooseProfile(
  ctx: SpotContext,
  task: RoutableTask | null,
  options: DoctorOptions,
  backend: string | null,
) {
  const common = { model: options.model, caller: detectCaller(ctx.env), requireModel: false };
  if (task || options.profile) {
    return selectProfile(ctx.config, task ?? NEUTRAL_TASK, {
      ...common,
      profile: options.profile,
      ready: readyHere(ctx, backend),
    });
  }
  const name = ctx.config.defaultProfile;
  if (!ctx.config.profiles[name]) {
    throw new SpotError(
      "PROFILE_NOT_FOUND",
      `Cannot check defaultProfile "${name}": the config has no such profile`,
      {
        details: {
          available: Object.keys(ctx.config.profiles),
          hint:
            "set defaultProfile to one of them, pass --profile, or pass --task to check the profile prepare " +
            "would route that task to",
        },
      },
    );
  }
  return selectProfile(ctx.config, NEUTRAL_TASK, {
    ...common,
    profile: name,
    profileSource: "default",
    profileReason: DEFAULT_REASON,
  });
}

export async function doctor(ctx: SpotContext, options: DoctorOptions) {
  const task = options.task ? await readContract(resolve(ctx.cwd, options.task), ctx.config) : null;
  if (task?.repositoryRoot) requireDirectory(task.repositoryRoot);
  // The same probe and decision prepare uses, so doctor cannot say yes where prepare would refuse.
  const choiceOfSandbox = options.sandbox === undefined ? ctx.config.sandbox : parseChoice(options.sandbox);
  if (!choiceOfSandbox) {
    throw new SpotError(
      "CLI_USAGE",
      `Cannot use --sandbox "${options.sandbox}": expected auto, bwrap or none`,
    );
  }
  const sandbox = resolveChoice(choiceOfSandbox, await hostSandbox(hostHere(ctx), choiceOfSandbox));
  const choice = chooseProfile(ctx, task, options, sandbox.ok ? sandbox.backend : null);
  const { profile } = choice;
  const checks: Check[] = await baseChecks(ctx, sandbox);
  if (options.task) checks.push({ name: "task", ok: true, detail: resolve(ctx.cwd, options.task) });
  if (task) checks.push(...checkProgramChecks(task, { cwd: task.repositoryRoot ?? ctx.cwd, env: ctx.env }));
  checks.push(...await binaryChecks(ctx, profile.adapter, { ...profile, model: choice.model }, options));
  checks.push(...credentialCheck(ctx, choice.name, profile, options.envNames));
  if (profile.adapter === "pi" && profile.apiKeyEnv) {
    checks.push(await piProviderCheck(ctx, choice.name, profile.provider, profile.apiKeyEnv));
  }
  if (!choice.model) {
    checks.push({ name: "model", ok: false, detail: "the profile has no model", fix: "pass --model" });
  }
  checks.push(networkCheck(ctx, choice.name, profile, sandbox.ok ? sandbox.backend : null));
  const queue = await queueCheck(ctx, choice.name);
  if (queue) checks.push(queue);
  const dependencies = await outlookHere(ctx);
  checks.push(dependencyCheck(dependencies));
  const summary = {
    profile: choice.name,
    profileSource: choice.routing.profileSource,
    reason: choice.routing.matchReason,
    fallbackChain: choice.routing.fallbackChain,
    provider: profile.provider,
    adapter: profile.adapter,
    model: choice.model,
    routing: choice.routing,
    dependencies,
    checks,
  };
  const failed = checks.filter((c) => !c.ok);
  if (failed.length > 0) {
    const lines = failed.map((c) => `${c.name}: ${c.detail}${c.fix ? ` (fix: ${c.fix})` : ""}`);
    // The code prepare would refuse with, where a failed check has one (pi-worker's doctor said `causeCode`).
    const causeCode = failed.find((c) => c.code)?.code;
    throw new SpotError("DOCTOR_FAILED", `Cannot run with profile "${choice.name}": ${lines.join("; ")}`, {
      details: { ...summary, ...(causeCode ? { causeCode } : {}) },
    });
  }
  return { status: "ready", ...summary };
}
