/** Reading a start snapshot a parent wrote with `spot parent-meter` (validated: it crossed a boundary). */
import { SpotError } from "../../errors.ts";
import { formatIssuesOf, parseJsonWithSchema } from "../../schemas/parse_json.ts";
import { ParentSnapshot } from "./usage.ts";

/** Where prepare keeps a copy of the start snapshot in the run directory (the parent's file may be in /tmp). */
export const START_SNAPSHOT_FILE = "parent-usage-start.json";

export async function readSnapshotFile(file: string): Promise<ParentSnapshot> {
  let text: string;
  try {
    text = await Deno.readTextFile(file);
  } catch (error) {
    throw new SpotError(
      "USAGE_SNAPSHOT_INVALID",
      `Cannot read the usage snapshot "${file}": ${error instanceof Error ? error.message : String(error)}`,
      { details: { file, hint: "write it first with `spot parent-meter --output FILE`" } },
    );
  }
  const parsed = await parseJsonWithSchema(text, ParentSnapshot);
  if (!parsed.ok) {
    throw new SpotError(
      "USAGE_SNAPSHOT_INVALID",
      `Cannot use the usage snapshot "${file}": ${parsed.issues.length} problem(s)\n${await formatIssuesOf(
        file,
        parsed.issues,
      )}`,
      { details: { file, issues: parsed.issues } },
    );
  }
  return parsed.value;
}
