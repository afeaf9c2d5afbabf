/**
 * spot's own checkout: the step programs, the bridge and the replay worker run from it. Imported from a
 * remote URL there is none on disk: importing still works (the checks, the types), and a verb that starts a
 * sandboxed step fails on the step script's URL, which is not a file. A module of its own, so what needs
 * only this path does not load the host's facts (and the step runner behind them).
 */
import { dirname, fromFileUrl } from "./path.ts";

export const SPOT_ROOT: string = import.meta.url.startsWith("file:")
  ? dirname(dirname(fromFileUrl(import.meta.url)))
  : `(spot loaded from ${new URL("..", import.meta.url).href}; steps need a local copy)`;
