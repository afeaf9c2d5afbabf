/**
 * The run's dependencies, provided once at prepare: the plan from the base's
 * lockfiles and the source checkout, the setup when one is needed (cached by
 * its key), and the `.worktreeinclude` files, all recorded on the run.
 */
import { join } from "../base/path.ts";
import { realPathOrNull } from "../sandbox/host_paths.ts";
import type { DependencyRecord } from "../schemas/dependency_record.ts";
import type { RunState } from "../schemas/run_state.ts";
import type { Enforcement } from "../schemas/sandbox_record.ts";
import type { SpotContext } from "../store/context.ts";
import { dependencyFacts } from "./facts.ts";
import { copyIncluded, includeList, linkDependencies } from "./furnish.ts";
import { ECOSYSTEMS, planDependencies } from "./plan.ts";
import { lazy } from "../base/lazy.ts";

/** The setup (its sandbox, its step) loads only for a project that needs one. */
const setupModule = () => lazy<typeof import("./setup.ts")>("./setup.ts", import.meta.url);

export interface Provided {
  record: DependencyRecord;
  /** What the setup's sandbox enforced, for the run's sandbox record. */
  enforcement: Enforcement | null;
}

/** The install tools a setup command starts: the ecosystems' own, which the sandbox must show. */
const TOOLS = [...new Set(ECOSYSTEMS.flatMap((e) => e.rules.map((r) => r.tool)))];

export async function provideDependencies(ctx: SpotContext, state: RunState): Promise<Provided> {
  const settings = ctx.config.dependencies;
  const facts = await dependencyFacts(state.sourceRoot, state.baseRevision, ctx.env("PATH") ?? "");
  const plan = planDependencies(facts, { reuse: settings.reuse, setup: settings.setup });
  const dirs = plan.reuse.map((path) => ({ path, from: realPathOrNull(join(state.sourceRoot, path))! }));
  const record: DependencyRecord = { ecosystems: plan.ecosystems, dirs, include: [] };
  let enforcement: Enforcement | null = null;
  if (plan.setupCommand) {
    const setup = await (await setupModule()).runSetup(ctx, state, {
      command: plan.setupCommand,
      inputs: plan.setupInputs,
      tools: TOOLS,
    });
    record.setup = setup.record;
    // A dir the source checkout provides is not shadowed by the setup's.
    record.dirs.push(...setup.dirs.filter((d) => !record.dirs.some((r) => r.path === d.path)));
    enforcement = setup.enforcement;
  }
  record.include = await copyIncluded(state, await includeList(state), state.worktreePath);
  if (state.sandbox !== "os") await linkDependencies({ ...state, dependencies: record }, state.worktreePath);
  return { record, enforcement };
}

/** What a run prepared here now would get, without installing anything: doctor's view. */
export async function dependencyOutlook(ctx: SpotContext, source: string, revision: string) {
  const settings = ctx.config.dependencies;
  const facts = await dependencyFacts(source, revision, ctx.env("PATH") ?? "");
  const plan = planDependencies(facts, { reuse: settings.reuse, setup: settings.setup });
  const setupOf = plan.setupCommand ? await setupModule() : null;
  const key = setupOf && plan.setupCommand
    ? await setupOf.setupKey(plan.setupCommand, plan.setupInputs)
    : null;
  const setup = setupOf && plan.setupCommand && key
    ? {
      command: plan.setupCommand,
      key,
      madeAt: await setupOf.setupMadeAt(ctx, key),
      registries: settings.registries,
    }
    : null;
  return { ecosystems: plan.ecosystems, reuse: plan.reuse, setup };
}
