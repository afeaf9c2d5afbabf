/** Loads the user's config (JSONC allowed), creating it with defaults on first use. */
import { dirname } from "node:path";
import { SpotError } from "../errors.ts";
import { Config } from "../schemas/config.ts";
import { formatIssues, parseWithSchema } from "../schemas/locate.ts";
import { DEFAULT_CONFIG } from "./default_config.ts";
import { writeTextAtomic } from "./files.ts";

export async function loadConfig(file: string): Promise<Config> {
  let text: string;
  try {
    text = await Deno.readTextFile(file);
  } catch (error) {
    if (!(error instanceof Deno.errors.NotFound)) throw error;
    text = JSON.stringify(DEFAULT_CONFIG, null, 2) + "\n";
    await Deno.mkdir(dirname(file), { recursive: true });
    await writeTextAtomic(file, text).catch(() => {});
  }
  const parsed = parseWithSchema(text, Config, { jsonc: true });
  if (!parsed.ok) {
    throw new SpotError(
      "CONFIG_INVALID",
      `Cannot use config "${file}": ${parsed.issues.length} problem(s)\n${formatIssues(file, parsed.issues)}`,
      {
        details: { file, issues: parsed.issues },
      },
    );
  }
  // The built-in replay worker is always there, whatever the user's file lists.
  const replay = Config.parse({ profiles: { replay: DEFAULT_CONFIG.profiles!.replay } }).profiles.replay;
  return { ...parsed.value, profiles: { replay, ...parsed.value.profiles } };
}
