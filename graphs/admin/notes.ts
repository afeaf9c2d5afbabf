/**
 * `spot job note JOB TEXT|-`: the parent tells a running job something it learned (a decision, a constraint).
 * Notes go to `<job>/notes.jsonl`, one `{at, text}` a line, and every task launched after a note is told all
 * of them (graphs/prompt.ts); a task already running is not interrupted.
 */
import { SpotError } from "../../errors.ts";
import type { SpotContext } from "../../store/context.ts";
import { appendJsonLine, readJsonLines } from "../../store/files.ts";
import { withLock } from "../../store/lock.ts";
import type { SpotPaths } from "../../store/paths.ts";
import { appendEvent, jobFile, jobLock, loadJob } from "../store.ts";
import { readStdin } from "../verbs.ts";

/** Long enough for a decision and its reason; a note longer than this belongs in a task's context. */
export const MAX_NOTE = 4000;

export interface JobNote {
  at: string;
  text: string;
}

/** The note as stored (trailing whitespace dropped), or why it cannot be one. */
export function checkNote(jobId: string, raw: string): string {
  const text = raw.trimEnd();
  if (!text.trim()) {
    throw new SpotError("JOB_INVALID", `Cannot add a note to job "${jobId}": the note is empty`);
  }
  if (text.length > MAX_NOTE) {
    throw new SpotError(
      "JOB_INVALID",
      `Cannot add a note to job "${jobId}": it has ${text.length} characters, at most ${MAX_NOTE}`,
      { details: { jobId, length: text.length, max: MAX_NOTE } },
    );
  }
  return text;
}

const notesFile = (paths: SpotPaths, jobId: string) => jobFile(paths, jobId, "notes.jsonl");

/** Every note of the job, oldest first (none when it has no notes file). */
export async function readNotes(paths: SpotPaths, jobId: string): Promise<JobNote[]> {
  const lines = await readJsonLines<JobNote>(notesFile(paths, jobId));
  return lines.filter((n) => typeof n?.text === "string");
}

export async function noteJob(
  ctx: SpotContext,
  jobId: string,
  input: string,
  stdin: () => Promise<string> = readStdin,
): Promise<{ jobId: string; notes: number }> {
  await loadJob(ctx.paths, jobId);
  const text = checkNote(jobId, input === "-" ? await stdin() : input);
  const at = ctx.now();
  // Under the job's lock, so two notes at once are counted and numbered in the order they were written.
  const count = await withLock(jobLock(ctx.paths, jobId), async () => {
    await appendJsonLine(notesFile(ctx.paths, jobId), { at, text } satisfies JobNote);
    return (await readNotes(ctx.paths, jobId)).length;
  });
  await appendEvent(ctx.paths, jobId, { at, type: "note", id: String(count), state: "added" });
  return { jobId, notes: count };
}
