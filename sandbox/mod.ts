export * from "./policy.ts";
export * from "./deno_flags.ts";
export * from "./spawn.ts";
export * from "./which.ts";
