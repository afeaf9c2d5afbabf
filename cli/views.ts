/**
 * The human view of each verb the table marks `human`: what a person at a terminal reads instead of the
 * JSON (cli/render/, pure functions of the result), each module loaded only when a terminal shows it.
 * cli/table_test.ts holds this map to the table both ways.
 */
import { lazy } from "../base/lazy.ts";
import type { Render } from "./invoke.ts";

// deno-lint-ignore no-explicit-any
type AnyRender = Render<any>;

export const VIEWS: Record<string, () => Promise<AnyRender>> = {
  inspect: async () =>
    (await lazy<typeof import("./render/inspect.ts")>("./render/inspect.ts", import.meta.url)).renderInspect,
  list: async () =>
    (await lazy<typeof import("./render/list.ts")>("./render/list.ts", import.meta.url)).renderList,
  diff: async () =>
    (await lazy<typeof import("./render/diff.ts")>("./render/diff.ts", import.meta.url)).renderDiff,
  "job status": async () =>
    (await lazy<typeof import("./render/job_status.ts")>("./render/job_status.ts", import.meta.url))
      .renderJobStatus,
  doctor: async () =>
    (await lazy<typeof import("./render/doctor.ts")>("./render/doctor.ts", import.meta.url)).renderDoctor,
  recover: async () =>
    (await lazy<typeof import("./render/recover.ts")>("./render/recover.ts", import.meta.url)).renderRecover,
  discard: async () =>
    (await lazy<typeof import("./render/discard.ts")>("./render/discard.ts", import.meta.url)).renderDiscard,
  gc: async () => (await lazy<typeof import("./render/gc.ts")>("./render/gc.ts", import.meta.url)).renderGc,
  sandbox: async () =>
    (await lazy<typeof import("./render/sandbox.ts")>("./render/sandbox.ts", import.meta.url)).renderSandbox,
  "executor ls": async () =>
    (await lazy<typeof import("./render/executors.ts")>("./render/executors.ts", import.meta.url))
      .renderExecutors,
  detect: async () => {
    const { renderRegistry } = await lazy<typeof import("../registry/render.ts")>(
      "../registry/render.ts",
      import.meta.url,
    );
    return (r: Parameters<typeof renderRegistry>[1] & { registry: Parameters<typeof renderRegistry>[0] }) =>
      renderRegistry(r.registry, r);
  },
};

/** The verb's view, loaded when the result is shown. */
export function viewOf(name: string): AnyRender {
  return async (result, options) => (await VIEWS[name]())(result, options);
}
