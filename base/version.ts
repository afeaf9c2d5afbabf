/** spot's version, from the one place it is written: deno.json (`spot --version`, the dashboard's /health). */
import config from "../deno.json" with { type: "json" };

export const VERSION: string = config.version;
