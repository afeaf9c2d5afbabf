/**
 * Golden files for the CLI's output (tests/fixtures/golden/): the text is compared byte for byte after what
 * changes from run to run (temp paths, times, commit hashes, durations, the checks' own output) is replaced
 * by a placeholder. `UPDATE_GOLDEN=1 deno test …` rewrites them; review the diff before committing it.
 */
import assert from "node:assert/strict";
import { dirname, join } from "node:path";
import { ROOT } from "../helpers.ts";

export const GOLDEN_DIR = join(ROOT, "tests", "fixtures", "golden");

/** Keys whose values are times, durations, process facts or a tool's own output: never the same twice. */
const VOLATILE_KEY = /(^at$|At$|Ms$|^pid$|^procStart$|^version$|^stdout$|^stderr$|^stderrTail$|^elapsed)/;

/** Text that differs between runs of the same scenario, in any string. */
export function normalizeText(text: string, tmp: string): string {
  return text
    .replaceAll(tmp, "<tmp>")
    .replaceAll(ROOT, "<checkout>")
    // Tool versions (deno, git) are the machine's, not spot's output.
    .replace(/\b\d+\.\d+\.\d+\b/g, "<version>")
    .replace(/\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z/g, "<time>")
    .replace(/\d{4}-\d{2}-\d{2} \d{2}:\d{2}/g, "<time>")
    .replace(/\b[0-9a-f]{64}\b/g, "<sha256>")
    .replace(/\b[0-9a-f]{40}\b/g, "<commit>")
    .replace(/\bspot-repo-[0-9a-f]+/g, "spot-repo-<id>")
    // Short forms (`integrated as 371cd3a588d5`, `landed 3b67bf8f7c`): hex with a letter and a digit in it.
    .replace(/\b(?=[0-9a-f]*[a-f])(?=[0-9a-f]*\d)[0-9a-f]{7,39}\b/g, "<short>")
    // A short hash can be all digits (one in ~200 at 12 characters): matched where spot prints one.
    .replace(/\b(as|landed|sha256|commit) \d{7,39}\b/g, "$1 <short>")
    .replace(/\bspot-forwarder-[0-9a-f]+/g, "spot-forwarder-<id>")
    .replace(/\b(worker|check|forwarder|setup|self-review)-[a-z0-9]{8}-[0-9a-f]{6}\b/g, "$1-<step>");
}

/** A verb's JSON with its volatile values replaced, keys kept in the order the verb wrote them. */
export function normalizeJson(value: unknown, tmp: string, key = ""): unknown {
  if (VOLATILE_KEY.test(key) && value !== null && typeof value !== "object") return `<${key}>`;
  if (Array.isArray(value)) return value.map((v) => normalizeJson(v, tmp));
  if (typeof value === "object" && value !== null) {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, normalizeJson(v, tmp, k)]));
  }
  return typeof value === "string" ? normalizeText(value, tmp) : value;
}

/** Compares `actual` with the golden file `name`, or writes it when UPDATE_GOLDEN=1. */
export async function assertGolden(name: string, actual: string): Promise<void> {
  const file = join(GOLDEN_DIR, name);
  if (Deno.env.get("UPDATE_GOLDEN") === "1") {
    await Deno.mkdir(dirname(file), { recursive: true });
    await Deno.writeTextFile(file, actual);
    return;
  }
  let expected: string;
  try {
    expected = await Deno.readTextFile(file);
  } catch {
    throw new Error(`No golden file ${file}: run with UPDATE_GOLDEN=1 to write it`);
  }
  assert.equal(actual, expected, `${name} differs from its golden file (UPDATE_GOLDEN=1 rewrites it)`);
}
