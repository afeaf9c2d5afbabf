/** The worker's final message judged the seed's way: its stop reason first, then whether it said anything. */

export interface TerminalResult {
  ok: boolean;
  stopReason?: string;
  text?: string;
}

export type Verdict = { ok: true; bytes: number } | { ok: false; reason: string };

export function judgeResult(result: TerminalResult): Verdict {
  // Adapters that report no stop reason still say whether the turn succeeded.
  const stop = result.stopReason ?? (result.ok ? "stop" : "error");
  if (stop === "error") return { ok: false, reason: "ERROR terminal=error" };
  if (stop !== "stop") return { ok: false, reason: `terminal=${stop} not-stop` };
  const bytes = new TextEncoder().encode(result.text ?? "").length;
  if (result.text === undefined || result.text.trim() === "") {
    return { ok: false, reason: "empty 0B terminal=stop" };
  }
  return { ok: true, bytes };
}
