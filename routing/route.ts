/**
 * Routing as `prepare` does it: the picker when a person asked for one (or
 * is at a terminal with no parent agent and no --profile/--model), then the
 * routing rules, then Qoder's price aliases and setting snaps.
 */
import { SpotError } from "../errors.ts";
import { buildWorkerChoices, type WorkerChoice } from "../registry/choices.ts";
import type { TaskContract } from "../schemas/task_contract.ts";
import { detectCaller } from "./caller.ts";
import type { SpotContext } from "../store/context.ts";
import { adjustForQoder, type WorkerSettings } from "./qoder_dispatch.ts";
import { type ProfileChoice, type SelectOptions, selectProfile } from "./select_profile.ts";
import { lazy } from "../base/lazy.ts";

export interface RouteOptions {
  profile?: string;
  model?: string;
  /** `--select-worker true`: show the picker even under a parent agent. */
  selectWorker?: boolean;
  /** `--select-model true`: keep the routed profile, pick only its model. */
  selectModel?: boolean;
  /** Both stdin and stdout are terminals; defaults to asking Deno. */
  interactive?: boolean;
  /** The prompt itself; tests replace it. */
  pick?: (choices: WorkerChoice[], message: string) => Promise<WorkerChoice | null>;
  /** Which profiles can run here; routing without a named profile takes only these (select_profile.ts). */
  ready?: SelectOptions["ready"];
}

export interface RouteResult {
  choice: ProfileChoice;
  settings: WorkerSettings;
  warnings: string[];
  caller: ReturnType<typeof detectCaller>;
}

/** "worker", "model" or null: when to prompt. Never without a terminal. */
export function pickerMode(
  options: RouteOptions,
  facts: { interactive: boolean; caller: string },
): "worker" | "model" | null {
  const forced = options.selectWorker ? "worker" : options.selectModel ? "model" : null;
  if (forced && !facts.interactive) {
    throw new SpotError("CLI_USAGE", `Cannot show the ${forced} picker: stdin or stdout is not a terminal`, {
      details: { hint: "pass --profile and --model instead" },
    });
  }
  if (forced) return forced;
  const human = facts.caller === "cli";
  return facts.interactive && human && !options.profile && !options.model ? "worker" : null;
}

function isInteractive(): boolean {
  return Deno.stdin.isTerminal() && Deno.stdout.isTerminal();
}

async function defaultPick(choices: WorkerChoice[], message: string): Promise<WorkerChoice | null> {
  const { pickWorker } = await lazy<typeof import("../registry/picker.ts")>(
    "../registry/picker.ts",
    import.meta.url,
  );
  return await pickWorker(choices, { title: message });
}

/** The person's choice; null when there is nothing to offer and nobody asked for the picker. */
async function ask(
  ctx: SpotContext,
  options: RouteOptions,
  onlyAdapter?: string,
): Promise<WorkerChoice | null> {
  const adapters = Object.values(ctx.config.profiles).map((p) => p.adapter);
  // Only the picker needs the installed CLIs, and with them every adapter: loaded when it opens.
  const { detect } = await lazy<typeof import("../registry/detect.ts")>(
    "../registry/detect.ts",
    import.meta.url,
  );
  const { registry } = await detect({
    cacheRoot: ctx.paths.cacheRoot,
    env: ctx.env,
    extraAdapters: adapters,
  });
  const all = buildWorkerChoices(registry, ctx.config);
  const choices = onlyAdapter ? all.filter((c) => c.adapter === onlyAdapter) : all;
  if (choices.length === 0) {
    if (!options.selectWorker && !options.selectModel) return null;
    throw new SpotError(
      "NO_ROUTABLE_PROFILE",
      "Cannot show the picker: no installed worker CLI has a profile",
      {
        details: { hint: "run spot detect, then add a profile for an installed CLI" },
      },
    );
  }
  const message = onlyAdapter ? `Select ${onlyAdapter} model` : "Available worker CLIs and models";
  const picked = await (options.pick ?? defaultPick)(choices, message);
  if (!picked) throw new SpotError("CANCELLED", "Cancelled at the worker picker: nothing was written");
  return picked;
}

export async function routeForPrepare(
  ctx: SpotContext,
  task: TaskContract,
  options: RouteOptions,
): Promise<RouteResult> {
  const caller = detectCaller(ctx.env);
  const mode = pickerMode(options, { interactive: options.interactive ?? isInteractive(), caller });
  let choice: ProfileChoice;
  const picked = mode === "worker" ? await ask(ctx, options) : null;
  if (picked) {
    choice = selectProfile(ctx.config, task, {
      profile: picked.profile,
      model: picked.model,
      caller,
      profileSource: "picker",
    });
  } else {
    choice = selectProfile(ctx.config, task, { ...options, caller });
    if (mode === "model") {
      const model = (await ask(ctx, options, choice.profile.adapter))!.model;
      choice = { ...choice, model };
    }
  }
  const adjusted = await adjustForQoder(ctx, choice);
  return { choice: { ...choice, model: adjusted.settings.model }, ...adjusted, caller };
}
