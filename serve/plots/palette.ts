/**
 * The charts' colours, shared by the charts (drawn lazily) and their HTML legends (drawn always), so a legend
 * never needs the plotting library to know what a bar's colour means.
 */
import { OUTCOME_ACTIVE, OUTCOME_FAILED, OUTCOME_PASSED, OUTCOME_UNVERIFIED } from "./series.ts";

/** Observable Plot's own categorical scheme ("observable10"), named here so the legend matches the bars. */
export const SERIES_COLORS = [
  "#4269d0",
  "#efb118",
  "#ff725c",
  "#6cc5b0",
  "#3ca951",
  "#ff8ab7",
  "#a463f2",
  "#97bbf5",
  "#9c6b4e",
  "#9498a0",
];

/** Outcomes in fixed colours: green passed, red failed, warm tones for gates, grey not verified. */
const OUTCOME_COLORS: Record<string, string> = {
  [OUTCOME_PASSED]: "#2e7d32",
  [OUTCOME_FAILED]: "#c62828",
  [OUTCOME_UNVERIFIED]: "#9e9e9e",
  [OUTCOME_ACTIVE]: "#1e88e5",
};
const GATE_COLORS = ["#ef6c00", "#f9a825", "#ad1457", "#6d4c41", "#8e24aa", "#5d4037"];

export const KIND_COLORS: Record<string, string> = {
  wait: "#bdbdbd",
  setup: "#90a4ae",
  worker: "#1e88e5",
  checks: "#fb8c00",
  review: "#8e24aa",
  integration: "#43a047",
  run: "#78909c",
};

export function seriesColors(keys: readonly string[]): string[] {
  return keys.map((_, i) => SERIES_COLORS[i % SERIES_COLORS.length]);
}

export function outcomeColors(names: readonly string[]): string[] {
  let gate = 0;
  return names.map((o) => OUTCOME_COLORS[o] ?? GATE_COLORS[gate++ % GATE_COLORS.length]);
}

export function kindColors(kinds: readonly string[]): string[] {
  return kinds.map((k) => KIND_COLORS[k] ?? "#78909c");
}

/** A task's state as the outline of its box in the offline graph. */
export const STATE_COLORS: Record<string, string> = {
  queued: "#9e9e9e",
  running: "#1e88e5",
  succeeded: "#2e7d32",
  failed: "#c62828",
  blocked: "#ef6c00",
  cancelled: "#616161",
};
