/** `doctor`: can this machine run a task with this profile, before anything is written? */
import { SpotError } from "../errors.ts";
import { getAdapter } from "../adapters/mod.ts";
import { which } from "../sandbox/which.ts";
import { git } from "../git/git.ts";
import type { SpotContext } from "./context.ts";
import { readContract } from "./contract_load.ts";
import { selectProfile } from "./select_profile.ts";
import { resolve } from "node:path";

export interface Check {
  name: string;
  ok: boolean;
  detail: string;
}

async function writable(dir: string): Promise<boolean> {
  try {
    await Deno.mkdir(dir, { recursive: true });
    const probe = `${dir}/.doctor-${crypto.randomUUID()}`;
    await Deno.writeTextFile(probe, "");
    await Deno.remove(probe);
    return true;
  } catch {
    return false;
  }
}

export async function doctor(ctx: SpotContext, options: { task?: string; profile?: string; model?: string }) {
  const checks: Check[] = [];
  checks.push({ name: "deno", ok: true, detail: Deno.version.deno });
  const gitVersion = await git(["--version"], { cwd: ctx.cwd, allowFailure: true }).catch(() => null);
  checks.push({
    name: "git",
    ok: gitVersion?.exitCode === 0,
    detail: gitVersion?.stdout.trim() ?? "git not found",
  });
  checks.push({ name: "state dir", ok: await writable(ctx.paths.stateRoot), detail: ctx.paths.stateRoot });
  checks.push({ name: "cache dir", ok: await writable(ctx.paths.cacheRoot), detail: ctx.paths.cacheRoot });
  const task = options.task
    ? await readContract(resolve(ctx.cwd, options.task), ctx.config)
    : { risk: "low" as const, verification: [], allowedPaths: [] };
  const choice = selectProfile(ctx.config, task as Parameters<typeof selectProfile>[1], {
    ...options,
    model: options.model ?? "-",
  });
  const adapter = getAdapter(choice.profile.adapter);
  checks.push({ name: "adapter", ok: !!adapter, detail: choice.profile.adapter });
  if (adapter) {
    const envName = `PI_WORKER_${choice.profile.adapter.toUpperCase().replace(/[^A-Z0-9]/g, "_")}_BIN`;
    const bin = which(
      choice.profile.binary ?? ctx.env(envName) ?? adapter.defaultBinary,
      ctx.env("PATH") ?? "",
    );
    checks.push({
      name: "worker binary",
      ok: !!bin,
      detail: bin ?? `${adapter.defaultBinary} not found on PATH`,
    });
  }
  if (choice.profile.apiKeyEnv) {
    const present = !!ctx.env(choice.profile.apiKeyEnv);
    checks.push({
      name: "credential",
      ok: present,
      detail: present
        ? `${choice.profile.apiKeyEnv} is set`
        : `${choice.profile.apiKeyEnv} is not set: export ${choice.profile.apiKeyEnv}=...`,
    });
  }
  const failed = checks.filter((c) => !c.ok);
  if (failed.length > 0) {
    throw new SpotError(
      "DOCTOR_FAILED",
      `Cannot run with profile "${choice.name}": ${failed.map((c) => `${c.name}: ${c.detail}`).join("; ")}`,
      {
        details: { profile: choice.name, checks },
      },
    );
  }
  return {
    status: "ready",
    profile: choice.name,
    provider: choice.profile.provider,
    model: choice.model,
    checks,
  };
}
