/** Model names come from other programs: drop control characters so none can drive the terminal. */
export function stripTerminal(text: string): string {
  // deno-lint-ignore no-control-regex
  return text.replace(/[\x00-\x1f\x7f-\x9f]/g, "");
}
