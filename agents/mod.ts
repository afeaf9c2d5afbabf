/** Named background agents (the pi-dispatch seed): each a named run, driven detached by spot itself. */
export * from "./start.ts";
export * from "./drive.ts";
export * from "./poll.ts";
export * from "./peek.ts";
export * from "./ls.ts";
export * from "./stop_verb.ts";
export * from "./send.ts";
export * from "./watch.ts";
export { AGENT_NAME_PATTERN, agentNameFor } from "./registry.ts";
export * from "./discard.ts";
