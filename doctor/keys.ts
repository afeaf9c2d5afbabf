/** doctor's credential checks: the profile's key variable, and pi's models.json agreeing with it. */
import type { Profile } from "../schemas/config.ts";
import type { SpotContext } from "../store/context.ts";
import { profileWithKey, similarNames } from "./credential_hint.ts";
import type { Check } from "./check.ts";
import { checkPiProvider, modelsFile } from "./pi_models.ts";

function allEnvNames(): string[] {
  try {
    return Object.keys(Deno.env.toObject());
  } catch {
    return [];
  }
}

export function credentialCheck(
  ctx: Pick<SpotContext, "env" | "config">,
  name: string,
  profile: Profile,
  envNames: () => string[] = allEnvNames,
): Check[] {
  const wanted = profile.apiKeyEnv;
  if (!wanted) return [];
  if (ctx.env(wanted)) return [{ name: "credential", ok: true, detail: `${wanted} is set` }];
  const similar = similarNames(wanted, envNames().filter((n) => !!ctx.env(n)));
  const other = profileWithKey(ctx.config, name, ctx.env);
  const hints = [
    similar.length ? `set but differently named: ${similar.join(", ")}` : "",
    other ? `profile "${other}" has its key set (--profile ${other})` : "",
  ].filter(Boolean);
  return [{
    name: "credential",
    ok: false,
    detail: `${wanted} is not set${hints.length ? ` (${hints.join("; ")})` : ""}`,
    fix: similar.length === 1
      ? `export ${wanted}="$${similar[0]}", or set profiles.${name}.apiKeyEnv to "${similar[0]}"`
      : `export ${wanted}=<your key>`,
  }];
}

export async function piProviderCheck(
  ctx: Pick<SpotContext, "env">,
  profile: string,
  provider: string,
  apiKeyEnv: string,
): Promise<Check> {
  const file = modelsFile(ctx.env);
  if (!file) return { name: "pi provider", ok: true, warn: true, detail: "no HOME: models.json not checked" };
  let models: unknown;
  try {
    models = JSON.parse(await Deno.readTextFile(file));
  } catch (error) {
    const missing = error instanceof Deno.errors.NotFound;
    return {
      name: "pi provider",
      ok: missing,
      warn: missing,
      detail: missing ? `${file} does not exist` : `cannot read ${file}: ${(error as Error).message}`,
    };
  }
  const result = checkPiProvider(models, { file, provider, profile, apiKeyEnv, env: ctx.env });
  return { name: "pi provider", ...result };
}
