/**
 * Gate baselines: what a gate compares a worker's turn against (`locked.json`, `escape.json`), written
 * once at prepare into the run directory, which no sandboxed worker can see. Their sha256 is kept in
 * `state.json`, so a baseline that is missing, unreadable or rewritten stops the run instead of reading
 * as "nothing changed". Without an OS sandbox a worker that rewrites state.json too could still forge one;
 * the sandbox is what puts the run directory out of its reach.
 */
import { SpotError } from "../errors.ts";
import { sha256Hex } from "../git/hash.ts";
import type { RunState } from "../schemas/run_state.ts";
import type { RunStore } from "./run_store.ts";

export type BaselineName = "locked.json" | "escape.json";

/** Writes a baseline and returns its sha256, for `state.baselines`. */
export async function writeBaseline(store: RunStore, runId: string, name: BaselineName, value: unknown) {
  const text = JSON.stringify(value, null, 2) + "\n";
  await store.writeText(runId, name, text);
  return await sha256Hex(text);
}

function invalid(state: RunState, name: BaselineName, why: string): SpotError {
  return new SpotError(
    "STATE_INVALID",
    `Cannot trust run "${state.runId}": its gate baseline ${name} ${why}`,
    {
      details: { runId: state.runId, baseline: name },
    },
  );
}

/** A baseline, checked against the hash prepare recorded; throws STATE_INVALID when it cannot be trusted. */
export async function readBaseline<T>(store: RunStore, state: RunState, name: BaselineName): Promise<T> {
  let text: string;
  try {
    text = await Deno.readTextFile(store.file(state.runId, name));
  } catch (error) {
    throw invalid(state, name, error instanceof Deno.errors.NotFound ? "is missing" : "cannot be read");
  }
  // Runs prepared before the hashes were recorded still need the file; they cannot detect an edit.
  const recorded = state.baselines?.[name];
  if (recorded !== undefined && recorded !== await sha256Hex(text)) {
    throw invalid(state, name, "was changed after prepare");
  }
  try {
    return JSON.parse(text) as T;
  } catch {
    throw invalid(state, name, "is not valid JSON");
  }
}
