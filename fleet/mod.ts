/** The fleet (docs/fleet.md): executors, runs sent to them, and what the command table loads lazily. */
export { runExecutor } from "./executor.ts";
export { listExecutors } from "./ls.ts";
export { runOnFleet } from "./remote_run.ts";
export { fleetPlacement } from "./placement.ts";
