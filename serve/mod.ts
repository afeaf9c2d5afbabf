/**
 * The dashboard (`spot serve`, `spot dashboard`) and the tmux monitor.
 * @module
 */
export { type AppDeps, createApp } from "./app.ts";
export { isLoopback, openBrowser, type RunningServer, startServer } from "./server.ts";
export { defaultSnapshotPath, renderSnapshot, writeSnapshot } from "./snapshot.ts";
export { monitor, monitoredRuns } from "./monitor.ts";
export { dashboardSnapshot, monitorRuns, parsePort, serveUntilStopped } from "./commands.ts";
