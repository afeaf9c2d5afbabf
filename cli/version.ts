/** spot's version, from the one place it is written: deno.json (kept in base/, which the dashboard reads too). */
export { VERSION } from "../base/version.ts";
