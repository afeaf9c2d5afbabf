/**
 * The interactive worker picker (@clack/prompts autocomplete): arrows move,
 * typing filters, Enter takes the highlighted row (the first one unless moved),
 * Ctrl+C cancels. Callers must check for a terminal first: clack does not.
 */
import { autocomplete, cancel, isCancel } from "@clack/prompts";
import { stripTerminal } from "./strip.ts";
import { choiceLabel, type WorkerChoice } from "./choices.ts";

/** Rows visible at once; the list scrolls past that. */
const VISIBLE_ROWS = 12;

/** Every typed word must appear in the row (adapter, model, tier or profile name). */
export function matchesFilter(search: string, text: string): boolean {
  const hay = text.toLowerCase();
  return search.toLowerCase().split(/\s+/).filter(Boolean).every((word) => hay.includes(word));
}

/** The chosen row, or null when the person cancelled. */
export async function pickWorker(
  choices: WorkerChoice[],
  options: { title?: string } = {},
): Promise<WorkerChoice | null> {
  if (choices.length === 0) return null;
  const byKey = new Map(choices.map((c) => [c.key, c]));
  const picked = await autocomplete<string>({
    message: `${options.title ?? "Select worker"} (Enter = ${
      stripTerminal(choiceLabel(choices[0]).replace(/\s+/g, " "))
    })`,
    options: choices.map((c) => ({
      value: c.key,
      label: stripTerminal(choiceLabel(c)),
      hint: `profile ${c.profile}`,
    })),
    initialValue: choices[0].key,
    maxItems: VISIBLE_ROWS,
    filter: (search, option) => matchesFilter(search, `${option.label ?? ""} ${option.hint ?? ""}`),
  });
  if (isCancel(picked)) {
    cancel("No worker chosen; nothing was written.");
    return null;
  }
  return byKey.get(picked) ?? null;
}
