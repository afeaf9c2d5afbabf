/**
 * The verb table: every verb spot has, declared once (table/verb.ts). The CLI, the MCP server and the
 * library are built from it; the words before a verb's last one name its group (`agent start`).
 */
import { AGENT_VERBS } from "./agent.ts";
import { HOST_VERBS } from "./host.ts";
import { FLEET_VERBS } from "./fleet.ts";
import { JOB_VERBS } from "./job.ts";
import { LOOP_VERBS } from "./loop.ts";
import { RUN_VIEW_VERBS } from "./runs.ts";
import type { AnyVerb } from "./verb.ts";

export const VERBS = [
  ...LOOP_VERBS,
  ...RUN_VIEW_VERBS,
  ...HOST_VERBS,
  ...AGENT_VERBS,
  ...JOB_VERBS,
  ...FLEET_VERBS,
] as const;

/** A verb by its CLI words. */
export function verbNamed(name: string): AnyVerb | undefined {
  return (VERBS as readonly AnyVerb[]).find((v) => v.name === name);
}

export * from "./verb.ts";
export * from "./field.ts";
export { GROUPS, MODULE_OF, TABLE_MODULES, type TableModule } from "./index.ts";

/** The declaration of the verb named `N`, with its own input and result types. */
export type VerbNamed<N extends string> = Extract<typeof VERBS[number], { name: N }>;

/** A verb by its CLI words, typed. */
export function verbOf<N extends typeof VERBS[number]["name"]>(name: N): VerbNamed<N> {
  return verbNamed(name) as VerbNamed<N>;
}
